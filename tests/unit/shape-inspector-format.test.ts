// The Shape Inspector's words for what it read: each message's first line, each timeline
// point's label, and the rows changed between two offsets (the earlier read less the later).
import { describe, expect, it } from 'vitest'
import {
  changesBetween,
  messageSummary,
  pointLabel,
  type Message,
} from '../../src/app/features/sources/inspector/inspector-format.ts'

const change = (operation: string, key: string): Message => ({
  key,
  value: {},
  headers: { operation },
})
const control = (name: string): Message => ({ headers: { control: name } })

describe('the Shape Inspector', () => {
  it('names a change by operation and key, and a control message or event by itself', () => {
    expect(messageSummary(change('insert', '"public"."items"/"1"'))).toBe(
      'insert "public"."items"/"1"',
    )
    expect(messageSummary(control('up-to-date'))).toBe('up-to-date')
    expect(messageSummary({ headers: { event: 'move-out' } })).toBe('move-out')
  })

  it('labels the timeline’s points', () => {
    expect(pointLabel({ kind: 'start', offset: '-1', rotation: null })).toBe(
      'Start',
    )
    expect(
      pointLabel({
        kind: 'start',
        offset: '-1',
        rotation: { at: 1, cause: 'clear_cache' },
      }),
    ).toBe('Start (rotated: cache cleared)')
    expect(pointLabel({ kind: 'snapshot_end', offset: '0_0', rows: 1 })).toBe(
      'Snapshot end · 1 row',
    )
    expect(
      pointLabel({
        kind: 'transaction',
        offset: '0_0',
        lsn: '123',
        txids: [812],
        messages: 2,
      }),
    ).toBe('Transaction 812 · 2 messages')
  })

  it('lists the rows changed between two offsets, in either order', () => {
    const tail = [change('update', 'b'), control('up-to-date')]
    const earlier = [
      change('insert', 'a'),
      change('update', 'b'),
      change('update', 'a'),
      ...tail,
    ]
    const rows = [
      { key: 'a', operations: ['insert', 'update'] },
      { key: 'b', operations: ['update'] },
    ]
    expect(changesBetween(earlier, tail)).toEqual(rows)
    expect(changesBetween(tail, earlier)).toEqual(rows)
    expect(changesBetween(tail, tail)).toEqual([])
  })
})
