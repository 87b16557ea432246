// What the figure hooks (figure-hooks.ts, and useSourceLiveShapes in hooks.ts) answer: a source's
// per-shape counters, its points over time and its invalidation log, as the charts and lists use
// them. Types only, so the hooks and the pages share them without importing each other.
import type { LiveShape } from '../../../shared/entities.ts'

/** The engine's figures of one live shape (server migration 0020_shape_metrics.sql). */
type ShapeFigures = {
  clients: number
  requests_per_minute: number
  bytes_per_minute: number
  changes_per_minute: number
  stalled_requests: number
  log_entries: number
  last_rotation_at: string | null
  last_rotation_cause: string | null
}

export type LiveShapeWithFigures = LiveShape & ShapeFigures

/** last hour (minute points), day and week (hour points). */
export type FigureWindow = 'hour' | 'day' | 'week'

/** One point of a source's figures over time. */
export type SourcePoint = {
  at: string
  changes_per_second: number
  writes_per_minute: number
  retained_wal_bytes: number | null
  lag_bytes: number | null
  clients: number
}

/** One of the busiest shapes at one point. */
export type ShapePoint = {
  at: string
  handle: string
  label: string
  clients: number
  bytes_per_minute: number
}

export type Invalidation = {
  id: string
  at: string
  handle: string
  table_schema: string
  table_name: string
  where_clause: string | null
  cause: string
  clients: number
  bytes_reread: number
}

/** What rotating every shape of a source now would touch. */
export type RotationLoad = { shapes: number; clients: number }
