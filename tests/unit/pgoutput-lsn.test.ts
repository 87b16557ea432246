// LSN text and decimal forms, and their round trips.
import { describe, expect, it } from 'vitest'
import {
  formatLsn,
  lsnFromDecimal,
  lsnToDecimal,
  maxLsn,
  parseLsn,
  walEndOf,
} from '../../src/engine/pg/lsn.ts'

describe('LSNs', () => {
  it('parses X/Y in either case, padded or not', () => {
    expect(parseLsn('0/0')).toBe(0n)
    expect(parseLsn('16/B374D848')).toBe(0x16b374d848n)
    expect(parseLsn('16/b374d848')).toBe(0x16b374d848n)
    expect(parseLsn('0/0016B374')).toBe(0x16b374n)
    expect(parseLsn('FFFFFFFF/FFFFFFFF')).toBe((1n << 64n) - 1n)
  })

  it('formats like Postgres 18, with the low half padded', () => {
    expect(formatLsn(0n)).toBe('0/00000000')
    expect(formatLsn(0x16b374d848n)).toBe('16/B374D848')
    expect(formatLsn(0x1n << 32n)).toBe('1/00000000')
  })

  it('round-trips through both forms', () => {
    for (const lsn of [
      0n,
      1n,
      0xffffffffn,
      1n << 32n,
      0x16b374d848n,
      (1n << 64n) - 1n,
    ]) {
      expect(parseLsn(formatLsn(lsn))).toBe(lsn)
      expect(lsnFromDecimal(lsnToDecimal(lsn))).toBe(lsn)
    }
    expect(lsnToDecimal(0x16b374d848n)).toBe('97500059720')
  })

  it('rejects malformed and out-of-range values', () => {
    for (const bad of [
      '',
      '16',
      '16/',
      '/1',
      '1/2/3',
      'G/0',
      '123456789/0',
      ' 0/0',
    ])
      expect(() => parseLsn(bad), bad).toThrow('invalid LSN')
    for (const bad of ['', '-1', '1.5', '01', '1e3', '18446744073709551616'])
      expect(() => lsnFromDecimal(bad), bad).toThrow()
    expect(() => formatLsn(-1n)).toThrow('out of range')
    expect(() => lsnToDecimal(1n << 64n)).toThrow('out of range')
  })

  it('picks the larger of two', () => {
    expect(maxLsn(1n, 2n)).toBe(2n)
    expect(maxLsn(3n, 2n)).toBe(3n)
  })
})

describe('where replication reports the WAL ends', () => {
  const block = 8192n
  const segment = 16n * 1024n * 1024n

  it('is the insert position, except just past a page header, where it is the page start', () => {
    expect(walEndOf(3n * segment + 1000n, block, segment)).toBe(
      3n * segment + 1000n,
    )
    // A segment's first page has the long header, the others the short one.
    expect(walEndOf(3n * segment + 40n, block, segment)).toBe(3n * segment)
    expect(walEndOf(3n * segment + block + 24n, block, segment)).toBe(
      3n * segment + block,
    )
    // Positions a record may end at stay as they are.
    expect(walEndOf(3n * segment + block + 40n, block, segment)).toBe(
      3n * segment + block + 40n,
    )
  })
})
