// The live-shape rows a source's writes come to (live-shapes-plan.ts): shapes that came or went
// are written at once, counters only when updates are due and something changed, and what a
// row keeps of a definition is cut to what the dashboard shows.
import { describe, expect, it } from 'vitest'
import type { ShapeFacts } from '../../src/engine/shapes/shape.ts'
import {
  PARAM_SHOWN_MAX,
  PARAMS_SHOWN_MAX,
  planShapeWrites,
  shapeRowOf,
  WHERE_SHOWN_MAX,
  type ShapeRow,
} from '../../src/server/sources/live-shapes/plan.ts'

const facts = (handle: string, more: Partial<ShapeFacts> = {}): ShapeFacts => ({
  handle,
  table: { schema: 'public', name: 'items' },
  where: 'n <= $1',
  params: ['3'],
  ready: true,
  rows: 3,
  logBytes: 400,
  createdAt: 1_000,
  lastReadAt: 2_000,
  clients: 2,
  requests: 10,
  bytesSent: 5_000,
  stalled: 0,
  changesWritten: 4,
  logEntries: 8,
  snapshotMs: 12,
  lastRotation: { at: 900, cause: 'clear_cache' },
  ...more,
})

const written = (...rows: ShapeRow[]) =>
  new Map(rows.map((row) => [row.handle, row]))

describe('shapeRowOf', () => {
  it('keeps the definition and counters, times in ms', () => {
    expect(shapeRowOf(facts('h1'))).toEqual({
      handle: 'h1',
      table_schema: 'public',
      table_name: 'items',
      where_clause: 'n <= $1',
      params: ['3'],
      row_count: 3,
      log_bytes: 400,
      created_at: 1_000,
      last_read_at: 2_000,
      clients: 2,
      requests: 10,
      bytes_sent: 5_000,
      changes_written: 4,
      stalled_requests: 0,
      log_entries: 8,
      snapshot_ms: 12,
      last_rotation_at: 900,
      last_rotation_cause: 'clear_cache',
      requests_per_minute: 0,
      bytes_per_minute: 0,
      changes_per_minute: 0,
      ready: true,
    })
  })

  it('cuts a long where clause and long or many params', () => {
    const row = shapeRowOf(
      facts('h1', {
        where: 'x'.repeat(WHERE_SHOWN_MAX + 5),
        params: Array.from({ length: PARAMS_SHOWN_MAX + 3 }, () =>
          'p'.repeat(PARAM_SHOWN_MAX + 1),
        ),
      }),
    )
    expect(row.where_clause).toBe(`${'x'.repeat(WHERE_SHOWN_MAX)}…`)
    expect(row.params).toHaveLength(PARAMS_SHOWN_MAX)
    expect(row.params[0]).toBe(`${'p'.repeat(PARAM_SHOWN_MAX)}…`)
  })

  it('a reopened shape nobody read since shows the read from before; a new read wins', () => {
    expect(
      shapeRowOf(facts('h1', { lastReadAt: null }), 1_500).last_read_at,
    ).toBe(1_500)
    expect(
      shapeRowOf(facts('h1', { lastReadAt: null })).last_read_at,
    ).toBeNull()
    expect(shapeRowOf(facts('h1'), 1_500).last_read_at).toBe(2_000)
  })
})

describe('planShapeWrites', () => {
  it('writes a new shape and deletes a gone one at once, updates due or not', () => {
    const before = written(shapeRowOf(facts('gone')))
    const plan = planShapeWrites(before, [shapeRowOf(facts('new'))], false)
    expect(plan.upserts.map((row) => row.handle)).toEqual(['new'])
    expect(plan.deletes).toEqual(['gone'])
  })

  it('leaves changed counters and reads for when updates are due', () => {
    const before = written(shapeRowOf(facts('h1')))
    for (const change of [
      { rows: 4 },
      { logBytes: 500 },
      { lastReadAt: 3_000 },
      { clients: 5 },
      { stalled: 1 },
      { logEntries: 9 },
    ]) {
      const now = [shapeRowOf(facts('h1', change))]
      expect(planShapeWrites(before, now, false)).toEqual({
        upserts: [],
        deletes: [],
      })
      expect(planShapeWrites(before, now, true).upserts).toEqual(now)
    }
  })

  it('writes nothing when nothing changed, due or not', () => {
    const before = written(shapeRowOf(facts('h1')))
    expect(planShapeWrites(before, [shapeRowOf(facts('h1'))], true)).toEqual({
      upserts: [],
      deletes: [],
    })
  })

  it('writes a completed snapshot at once: its rows are what the user waits for', () => {
    const before = written(shapeRowOf(facts('h1', { ready: false, rows: 0 })))
    const now = [shapeRowOf(facts('h1'))]
    expect(planShapeWrites(before, now, false).upserts).toEqual(now)
  })
})
