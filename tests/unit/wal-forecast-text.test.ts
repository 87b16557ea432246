// The forecast's wording, shared by the source page and the alert's message.
import { describe, expect, it } from 'vitest'
import {
  formatDuration,
  invalidatedIn,
} from '../../src/shared/wal-forecast-text.ts'

describe('formatDuration', () => {
  it('rounds to minutes, then hours and minutes, then days and hours', () => {
    expect(formatDuration(0)).toBe('under a minute')
    expect(formatDuration(29)).toBe('under a minute')
    expect(formatDuration(31)).toBe('1 min')
    expect(formatDuration(42 * 60 + 10)).toBe('42 min')
    expect(formatDuration(3600)).toBe('1 h')
    expect(formatDuration(3 * 3600 + 5 * 60)).toBe('3 h 5 min')
    expect(formatDuration(86_400)).toBe('1 day')
    expect(formatDuration(2 * 86_400 + 4 * 3600 + 59)).toBe('2 days 4 h')
    expect(formatDuration(7 * 86_400)).toBe('7 days')
  })
})

describe('invalidatedIn', () => {
  it('says "about" unless it is under a minute', () => {
    expect(invalidatedIn(42 * 60)).toBe('in about 42 min')
    expect(invalidatedIn(10)).toBe('in under a minute')
  })
})
