// One sample of a source's figures (sources/metrics/sample.ts): rates over the interval from
// the engine's running totals, each shape from its own counters (a new one from zero), the
// busiest ten shapes kept, and nothing from a first sample.
import { describe, expect, it } from 'vitest'
import type { ShapeFacts } from '../../src/engine/shapes/shape.ts'
import {
  samplePoint,
  type SourceTotals,
} from '../../src/server/sources/metrics/sample.ts'

const shape = (
  handle: string,
  requests: number,
  bytesSent: number,
  clients = 1,
): ShapeFacts => ({
  handle,
  table: { schema: 'public', name: 'items' },
  where: handle === 'long' ? 'x'.repeat(500) : 'n > 1',
  params: [],
  ready: true,
  rows: 0,
  logBytes: 0,
  createdAt: 0,
  lastReadAt: null,
  clients,
  requests,
  bytesSent,
  stalled: 0,
  changesWritten: 0,
  logEntries: 0,
  snapshotMs: null,
  lastRotation: null,
})

const totals = (at: number, more: Partial<SourceTotals>): SourceTotals => ({
  at,
  changes: 0,
  writes: 0,
  shapes: [],
  snapshotMs: [],
  retainedBytes: 2_048,
  lagBytes: 16,
  ...more,
})

describe('samplePoint', () => {
  it('gives no point from a first sample, but keeps its totals', () => {
    const first = samplePoint(null, totals(0, { shapes: [shape('a', 5, 500)] }))
    expect(first.point).toBeNull()
    expect(first.shapeTotals.get('a')).toEqual({ requests: 5, bytes: 500 })
  })

  it('rates the interval: changes per second, the rest per minute', () => {
    const before = {
      ...totals(0, {
        changes: 100,
        writes: 1_000,
        shapes: [shape('a', 10, 1_000)],
      }),
      shapeTotals: new Map([['a', { requests: 10, bytes: 1_000 }]]),
    }
    const { point, shapes } = samplePoint(
      before,
      totals(30_000, {
        changes: 400,
        writes: 1_600,
        // `b` is new: all its traffic is the interval's.
        shapes: [shape('a', 25, 4_000, 2), shape('b', 3, 300, 0)],
        snapshotMs: [12, 40],
      }),
    )
    expect(point).toEqual({
      changes_per_second: 10,
      writes_per_minute: 1_200,
      retained_wal_bytes: 2_048,
      lag_bytes: 16,
      clients: 2,
      requests_per_minute: 36,
      bytes_per_minute: 6_600,
      snapshots: 2,
      snapshot_ms_max: 40,
    })
    expect(shapes.map((s) => [s.handle, s.bytes_per_minute])).toEqual([
      ['a', 6_000],
      ['b', 600],
    ])
    expect(shapes[0]?.label).toBe('public.items where n > 1')
  })

  it('keeps the ten busiest shapes, and cuts a long label', () => {
    const many = Array.from({ length: 14 }, (_, i) =>
      shape(i === 13 ? 'long' : `s${i}`, i, 100 * (i + 1)),
    )
    const before = {
      ...totals(0, {}),
      shapeTotals: new Map<string, { requests: number; bytes: number }>(),
    }
    const { shapes } = samplePoint(before, totals(60_000, { shapes: many }))
    expect(shapes).toHaveLength(10)
    expect(shapes[0]?.handle).toBe('long')
    expect(shapes[0]?.label).toMatch(/^public\.items where x{200}…$/)
  })
})
