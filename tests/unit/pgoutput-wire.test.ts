// The streaming replication envelope: XLogData and keepalive in, standby status update out.
import { describe, expect, it } from 'vitest'
import {
  decodeServerMessage,
  encodeStatusUpdate,
  STATUS_UPDATE_LENGTH,
} from '../../src/engine/pg/wire.ts'

const header = (tag: string, ...int64s: bigint[]) => {
  const buffer = Buffer.alloc(1 + 8 * int64s.length)
  buffer.write(tag, 0, 'latin1')
  int64s.forEach((value, i) => buffer.writeBigInt64BE(value, 1 + 8 * i))
  return buffer
}
// 2000-01-01T00:00:01Z: one second after the Postgres epoch.
const ONE_SECOND = 1_000_000n

describe('server messages', () => {
  it('decodes XLogData with its payload', () => {
    const chunk = Buffer.concat([
      header('w', 10n, 20n, ONE_SECOND),
      Buffer.from('B...'),
    ])
    expect(decodeServerMessage(chunk)).toEqual({
      tag: 'xlogData',
      walStart: 10n,
      walEnd: 20n,
      sendTime: new Date('2000-01-01T00:00:01Z'),
      data: Buffer.from('B...'),
    })
  })

  it('decodes a primary keepalive and its reply request', () => {
    const asks = Buffer.concat([
      header('k', 0x16b374d848n, ONE_SECOND),
      Buffer.from([1]),
    ])
    expect(decodeServerMessage(asks)).toEqual({
      tag: 'keepalive',
      walEnd: 0x16b374d848n,
      sendTime: new Date('2000-01-01T00:00:01Z'),
      replyRequested: true,
    })
    const quiet = Buffer.concat([header('k', 1n, 0n), Buffer.from([0])])
    expect(decodeServerMessage(quiet)).toMatchObject({ replyRequested: false })
  })

  it('skips message kinds it does not know and rejects short ones', () => {
    expect(decodeServerMessage(Buffer.from('s0000'))).toBeNull()
    expect(() => decodeServerMessage(header('k', 1n))).toThrow('truncated')
  })
})

describe('encodeStatusUpdate', () => {
  it('writes r, the three positions as given, the clock in microseconds and the reply flag', () => {
    const buffer = encodeStatusUpdate({
      written: 0x16b374d848n,
      flushed: 0x16b374d800n,
      applied: 0x10n,
      clock: new Date('2024-01-01T00:00:00.123Z'),
      replyRequested: true,
    })
    expect(buffer).toHaveLength(STATUS_UPDATE_LENGTH)
    expect(buffer.toString('hex')).toBe(
      [
        '72', // 'r'
        '00000016b374d848', // written: no "+1", an end LSN already points past the last byte
        '00000016b374d800',
        '0000000000000010',
        757382400123000n.toString(16).padStart(16, '0'),
        '01',
      ].join(''),
    )
  })

  it('defaults to now and no reply request', () => {
    const before = Date.now()
    const buffer = encodeStatusUpdate({ written: 1n, flushed: 1n, applied: 1n })
    const clockMs =
      Number(buffer.readBigInt64BE(25) / 1000n) + Date.UTC(2000, 0, 1)
    expect(clockMs).toBeGreaterThanOrEqual(before)
    expect(clockMs).toBeLessThanOrEqual(Date.now())
    expect(buffer.readUInt8(33)).toBe(0)
  })
})
