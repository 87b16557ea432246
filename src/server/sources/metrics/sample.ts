// One sample of a source's figures, pure: rates over the interval since the last sample, from
// the engine's running totals. Per-shape traffic is summed from each shape's own counters (a
// shape made since counts from zero); a shape rotated within the interval takes its last
// seconds' traffic with it, which the next sample's successor makes up.
import type { ShapeFacts } from '../../../engine/index.ts'
import { WHERE_SHOWN_MAX } from '../live-shapes/plan.ts'

/** The busiest shapes (by bytes served) each point keeps. */
export const SHAPES_PER_POINT = 10
/** A label shows this much of a where clause. */
const LABEL_WHERE_MAX = 200

/** What the engine holds of a source at a sample, running totals but for the gauges. */
export type SourceTotals = {
  at: number
  changes: number
  writes: number
  shapes: readonly ShapeFacts[]
  /** Snapshots completed since the last sample, in ms each. */
  snapshotMs: readonly number[]
  retainedBytes: number | null
  lagBytes: number | null
}

export type SourcePoint = {
  changes_per_second: number
  writes_per_minute: number
  retained_wal_bytes: number | null
  lag_bytes: number | null
  clients: number
  requests_per_minute: number
  bytes_per_minute: number
  snapshots: number
  snapshot_ms_max: number | null
}

export type ShapePoint = {
  handle: string
  label: string
  clients: number
  requests_per_minute: number
  bytes_per_minute: number
}

/** Per-shape totals kept from one sample to the next. */
export type ShapeTotals = ReadonlyMap<
  string,
  { requests: number; bytes: number }
>

const round2 = (n: number) => Math.round(n * 100) / 100

/** `table where …` as the dashboard names a shape. */
function shapeLabel(facts: Pick<ShapeFacts, 'table' | 'where'>): string {
  const table = `${facts.table.schema}.${facts.table.name}`
  if (facts.where === null) return table
  const where = facts.where.slice(0, Math.min(LABEL_WHERE_MAX, WHERE_SHOWN_MAX))
  return `${table} where ${where}${facts.where.length > where.length ? '…' : ''}`
}

/**
 * The point for the interval from `before` to `now`, and the per-shape totals to keep. With
 * no sample before (the source just started here), rates are over nothing: null.
 */
export function samplePoint(
  before: (SourceTotals & { shapeTotals: ShapeTotals }) | null,
  now: SourceTotals,
): {
  point: SourcePoint | null
  shapes: ShapePoint[]
  shapeTotals: ShapeTotals
} {
  const shapeTotals = new Map(
    now.shapes.map((s) => [
      s.handle,
      { requests: s.requests, bytes: s.bytesSent },
    ]),
  )
  if (!before || now.at <= before.at)
    return { point: null, shapes: [], shapeTotals }
  const minutes = (now.at - before.at) / 60_000
  const perMinute = (delta: number) => round2(Math.max(0, delta) / minutes)
  const shapes = now.shapes.map((shape) => {
    const was = before.shapeTotals.get(shape.handle)
    return {
      handle: shape.handle,
      label: shapeLabel(shape),
      clients: shape.clients,
      requests_per_minute: perMinute(shape.requests - (was?.requests ?? 0)),
      bytes_per_minute: perMinute(shape.bytesSent - (was?.bytes ?? 0)),
    }
  })
  const sum = (pick: (shape: ShapePoint) => number) =>
    round2(shapes.reduce((total, shape) => total + pick(shape), 0))
  const point: SourcePoint = {
    changes_per_second: round2(
      Math.max(0, now.changes - before.changes) / (minutes * 60),
    ),
    writes_per_minute: perMinute(now.writes - before.writes),
    retained_wal_bytes: now.retainedBytes,
    lag_bytes: now.lagBytes,
    clients: shapes.reduce((total, shape) => total + shape.clients, 0),
    requests_per_minute: sum((shape) => shape.requests_per_minute),
    bytes_per_minute: sum((shape) => shape.bytes_per_minute),
    snapshots: now.snapshotMs.length,
    snapshot_ms_max:
      now.snapshotMs.length > 0 ? Math.max(...now.snapshotMs) : null,
  }
  const busiest = shapes
    .filter((shape) => shape.bytes_per_minute > 0 || shape.clients > 0)
    .sort(
      (a, b) =>
        b.bytes_per_minute - a.bytes_per_minute ||
        b.clients - a.clients ||
        a.handle.localeCompare(b.handle),
    )
    .slice(0, SHAPES_PER_POINT)
  return { point, shapes: busiest, shapeTotals }
}
