// Reading a shape log's records from a file (the log, or a compacted segment of it): from an
// index point before where the answer starts, line by line with byte positions, up to the end
// of the answer's chunk (chunks.ts). log-store.ts answers with it whatever its tail lacks.
//
// The records' JSON stays bytes: views of the blocks read, which the answer is joined from
// (answer-body.ts). Decoded to strings, a 10 MiB snapshot chunk was read into the heap twice
// (its lines, then the answer's text) and encoded back into bytes to be sent: a third of
// reading a 1M-row shape from its log, and most of the engine's heap growth meanwhile
// (bench:engine --only snapshot).
import type { ChunkCut, TailPage } from './log-tail.ts'
import { parseRecordBytes } from './log-recovery.ts'
import { compareOffsets, parseOffset, type Offset } from './offset.ts'

const READ_BLOCK = 256 * 1024
const NEWLINE = 10

/** Where an answer starts: after an offset, or with the records at or past a byte position. */
export type ScanStart = { after: Offset } | { pos: number }

/** A point of a sparse index: the record at `offset` ends at byte `pos`. */
type Point = { offset: Offset; pos: number }

export type ScanSource = {
  readAt(pos: number, size: number): Buffer
  index: Point[]
  /** Where the readable records end. */
  end: number
  /**
   * Whether the record at op `op` of its transaction (`last`: the transaction's last), whose
   * line ends at `lineEnd`, ends the answer, the chunk's `boundary` given.
   */
  endsChunk(
    op: number,
    last: boolean,
    lineEnd: number,
    boundary: number,
  ): boolean
}

const TAB = 9
const ONE = 0x31
const UNDERSCORE = 0x5f
const ZERO = 0x30
const I = 0x69

/**
 * The op of the offset in bytes start..end (`<tx>_<op>`, or `<tx>_inf`), read from the bytes;
 * -1 if there is none. Only what the chunk's end needs: past an answer's first record, a record's
 * offset is never made (at 10 MiB a chunk, tens of thousands of strings, BigInts and objects,
 * most of what reading a snapshot allocated, bench:engine --only snapshot --heap-profile).
 */
function opOf(data: Buffer, start: number, end: number): number {
  const u = data.lastIndexOf(UNDERSCORE, end - 1)
  if (u <= start || u >= end - 1) return -1
  if (data[u + 1] === I) return Infinity
  let op = 0
  for (let i = u + 1; i < end; i++) {
    const digit = (data[i] as number) - ZERO
    if (digit < 0 || digit > 9) return -1
    op = op * 10 + digit
  }
  return op
}

/** The records of `source` from `start` to the end of their chunk; `atEnd`: the source's end. */
export function scanRecords(
  source: ScanSource,
  start: ScanStart,
  cut: ChunkCut,
): TailPage {
  const point = source.index[pointBefore(source.index, start)] as Point
  const messages: Buffer[] = []
  let lastOffset = 'after' in start ? start.after : point.offset
  // The newest record taken, as the bytes of its offset: made into an Offset once, at the end.
  let newestData: Buffer | null = null
  let newestStart = 0
  let newestEnd = 0
  let from: number | null = null
  let boundary = Infinity
  // The file position of data[0], and where the last line looked at ends.
  let dataPos = point.pos
  let readPos = point.pos
  let consumed = point.pos
  scan: while (readPos < source.end) {
    const size = Math.min(READ_BLOCK, source.end - readPos)
    // The unfinished line before it is read again with the block (from the page cache, or the
    // writer's memory), rather than the two joined: one buffer per block, not two.
    const data = source.readAt(dataPos, readPos + size - dataPos)
    readPos += size
    let at = 0
    for (;;) {
      const newline = data.indexOf(NEWLINE, at)
      if (newline < 0) break
      const lineStart = at
      at = newline + 1
      consumed = dataPos + at
      const a = data.indexOf(TAB, lineStart)
      const b = a < 0 ? -1 : data.indexOf(TAB, a + 1)
      if (b < 0 || b >= newline) continue
      const op = opOf(data, lineStart, a)
      if (op < 0) continue
      if (from === null) {
        if ('after' in start) {
          const record = parseRecordBytes(data, lineStart, newline)
          if (!record || compareOffsets(record.offset, start.after) <= 0)
            continue
        } else if (dataPos + lineStart < start.pos) continue
        from = dataPos + lineStart
        boundary = cut(from)
      }
      if (b + 1 < newline) messages.push(data.subarray(b + 1, newline))
      newestData = data
      newestStart = lineStart
      newestEnd = a
      const last = b === a + 2 && data[a + 1] === ONE
      if (source.endsChunk(op, last, consumed, boundary)) break scan
    }
    dataPos += at
  }
  if (newestData) {
    const offset = parseOffset(
      newestData.toString('latin1', newestStart, newestEnd),
    )
    if (offset) lastOffset = offset
  }
  return { messages, lastOffset, atEnd: consumed >= source.end, from }
}

/** The last index point at or before where a read starts (the index's first is before all). */
function pointBefore(index: Point[], start: ScanStart): number {
  let lo = 0
  let hi = index.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    const point = index[mid] as Point
    const at =
      'after' in start
        ? compareOffsets(point.offset, start.after) <= 0
        : point.pos <= start.pos
    if (at) lo = mid
    else hi = mid - 1
  }
  return lo
}
