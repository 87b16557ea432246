// The explorer's rows of a shape with subqueries: tags and active conditions kept per row,
// move-out and move-in events applied as Electric's consumers apply them.
import type { Message, Row } from '@electric-sql/client'
import { describe, expect, it } from 'vitest'
import { MovingRows } from '../../src/app/lib/moving-rows.ts'

const insert = (
  id: string,
  tags: string[],
  active: boolean[],
): Message<Row> => ({
  key: id,
  value: { id },
  headers: { operation: 'insert', tags, active_conditions: active },
})
const event = (
  kind: 'move-in' | 'move-out',
  patterns: Array<{ pos: number; value: string }>,
) => ({ headers: { event: kind, patterns } }) as unknown as Message<Row>

const keys = (rows: MovingRows) => [...rows.rows.keys()].sort()

describe('MovingRows', () => {
  it('drops the rows a move-out leaves without a reason, keeps the others', () => {
    const rows = new MovingRows()
    rows.apply(insert('1', ['A'], [true]))
    rows.apply(insert('2', ['A'], [true]))
    rows.apply(insert('3', ['B'], [true]))
    expect(rows.apply(event('move-out', [{ pos: 0, value: 'A' }]))).toBe(true)
    expect(keys(rows)).toEqual(['3'])
    expect(rows.apply(event('move-out', [{ pos: 0, value: 'Z' }]))).toBe(false)
  })

  it('keeps a row another disjunct holds, until that one goes too', () => {
    // `a IN (…) OR b IN (…)`: two disjuncts, one position each.
    const rows = new MovingRows()
    rows.apply(insert('1', ['A/', '/B'], [true, true]))
    rows.apply(event('move-out', [{ pos: 0, value: 'A' }]))
    expect(keys(rows)).toEqual(['1'])
    // A move-in turns the position back on for the rows already there.
    rows.apply(event('move-in', [{ pos: 0, value: 'A' }]))
    rows.apply(event('move-out', [{ pos: 1, value: 'B' }]))
    expect(keys(rows)).toEqual(['1'])
    rows.apply(event('move-out', [{ pos: 0, value: 'A' }]))
    expect(keys(rows)).toEqual([])
  })

  it('follows a row whose update moves its tag, merging the columns it sends', () => {
    const rows = new MovingRows()
    rows.apply({
      key: '1',
      value: { id: '1', project: 'p1', title: 't' },
      headers: { operation: 'insert', tags: ['A'], active_conditions: [true] },
    })
    rows.apply({
      key: '1',
      value: { id: '1', project: 'p2' },
      headers: {
        operation: 'update',
        tags: ['B'],
        removed_tags: ['A'],
        active_conditions: [true],
      },
    })
    expect(rows.rows.get('1')).toEqual({ id: '1', project: 'p2', title: 't' })
    rows.apply(event('move-out', [{ pos: 0, value: 'A' }]))
    expect(keys(rows)).toEqual(['1'])
    rows.apply(event('move-out', [{ pos: 0, value: 'B' }]))
    expect(keys(rows)).toEqual([])
  })

  it('forgets everything on must-refetch, and plain shapes work as before', () => {
    const rows = new MovingRows()
    rows.apply({
      key: '1',
      value: { id: '1' },
      headers: { operation: 'insert' },
    })
    rows.apply({
      key: '1',
      value: { id: '1' },
      headers: { operation: 'delete' },
    })
    rows.apply({
      key: '2',
      value: { id: '2' },
      headers: { operation: 'insert' },
    })
    expect(keys(rows)).toEqual(['2'])
    rows.apply({ headers: { control: 'must-refetch' } } as Message<Row>)
    expect(keys(rows)).toEqual([])
  })
})
