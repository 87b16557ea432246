// The streaming replication envelope around pgoutput: XLogData ('w') and primary keepalive
// ('k') from the server, standby status update ('r') from us, each inside one CopyData.
import { ByteReader } from './byte-reader.ts'
import { fromPgTimestamp, toPgTimestamp } from './pg-time.ts'
import type { Lsn } from './lsn.ts'

export type ServerMessage =
  | {
      tag: 'xlogData'
      walStart: Lsn
      walEnd: Lsn
      sendTime: Date
      data: Buffer
    }
  | { tag: 'keepalive'; walEnd: Lsn; sendTime: Date; replyRequested: boolean }

/** Null for message kinds this client does not use (future server messages are skipped). */
export function decodeServerMessage(chunk: Buffer): ServerMessage | null {
  const reader = new ByteReader(chunk)
  const tag = reader.char()
  if (tag === 'w')
    return {
      tag: 'xlogData',
      walStart: reader.uint64(),
      walEnd: reader.uint64(),
      sendTime: fromPgTimestamp(reader.int64()),
      // No copy: the payload is decoded before the protocol parser reuses the memory.
      data: chunk.subarray(25),
    }
  if (tag === 'k')
    return {
      tag: 'keepalive',
      walEnd: reader.uint64(),
      sendTime: fromPgTimestamp(reader.int64()),
      replyRequested: reader.uint8() === 1,
    }
  return null
}

export type StatusUpdate = {
  /** Each is "the last WAL byte + 1" processed: an end LSN such as a commit's end, as is. */
  written: Lsn
  flushed: Lsn
  applied: Lsn
  clock?: Date
  replyRequested?: boolean
}

export const STATUS_UPDATE_LENGTH = 34

export function encodeStatusUpdate(update: StatusUpdate): Buffer {
  const buffer = Buffer.alloc(STATUS_UPDATE_LENGTH)
  buffer.write('r', 0, 'latin1')
  buffer.writeBigUInt64BE(update.written, 1)
  buffer.writeBigUInt64BE(update.flushed, 9)
  buffer.writeBigUInt64BE(update.applied, 17)
  buffer.writeBigInt64BE(toPgTimestamp(update.clock ?? new Date()), 25)
  buffer.writeUInt8(update.replyRequested ? 1 : 0, 33)
  return buffer
}
