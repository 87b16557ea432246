// Named live reads of a source's figures in the local store: its points over time for a window,
// its busiest shapes' points, its invalidation log and what a rotation of all its shapes would
// touch. Showing them follows the source, so they are there offline too (hooks.ts).
import type {
  FigureWindow,
  Invalidation,
  RotationLoad,
  ShapePoint,
  SourcePoint,
} from './figure-types.ts'
import { METRIC_WINDOWS } from '../../../shared/source-metrics.ts'
import { useStoreQuery } from './first-reads.ts'
import { OWNER_TEAMS, iso, useFollowed } from './hooks.ts'

// Each window's resolution and span (shared/source-metrics.ts). The span counts back from the
// newest point the store holds, not from now, so a tab offline for a while still charts its
// last-known figures.
function windowOf(window: FigureWindow) {
  const { resolution, ms } = METRIC_WINDOWS[window]
  return { resolution, span: `${ms} milliseconds` }
}

const inWindow = (table: string) => `
  m.source_id::text = $1 and m.resolution = $2
  and m.at > (select max(at) from ${table}
               where source_id::text = $1 and resolution = $2) - $3::interval`

const num = (value: unknown): number => Number(value)
const numOrNull = (value: unknown): number | null =>
  value == null ? null : Number(value)

/** The source's points of the window, oldest first. */
export function useSourcePoints(
  sourceId: string,
  window: FigureWindow,
): SourcePoint[] | undefined {
  useFollowed('source', sourceId)
  const { resolution, span } = windowOf(window)
  return useStoreQuery<Record<keyof SourcePoint, unknown>>(
    `select m.at, m.changes_per_second, m.writes_per_minute, m.retained_wal_bytes,
            m.lag_bytes, m.clients
       from source_metrics m
       join sources s on s.id = m.source_id and s.team_id in ${OWNER_TEAMS}
      where ${inWindow('source_metrics')}
      order by m.at`,
    [sourceId, resolution, span],
  )?.rows.map((row) => ({
    at: iso(row.at),
    changes_per_second: num(row.changes_per_second),
    writes_per_minute: num(row.writes_per_minute),
    retained_wal_bytes: numOrNull(row.retained_wal_bytes),
    lag_bytes: numOrNull(row.lag_bytes),
    clients: num(row.clients),
  }))
}

/** The busiest shapes' points of the window, oldest first. */
export function useShapePoints(
  sourceId: string,
  window: FigureWindow,
): ShapePoint[] | undefined {
  useFollowed('source', sourceId)
  const { resolution, span } = windowOf(window)
  return useStoreQuery<Record<keyof ShapePoint, unknown>>(
    `select m.at, m.handle, m.label, m.clients, m.bytes_per_minute
       from source_shape_metrics m
       join sources s on s.id = m.source_id and s.team_id in ${OWNER_TEAMS}
      where ${inWindow('source_shape_metrics')}
      order by m.at, m.handle`,
    [sourceId, resolution, span],
  )?.rows.map((row) => ({
    at: iso(row.at),
    handle: String(row.handle),
    label: String(row.label),
    clients: num(row.clients),
    bytes_per_minute: num(row.bytes_per_minute),
  }))
}

/** The source's newest `limit` rotations, newest first. */
export function useSourceInvalidations(
  sourceId: string,
  limit: number,
): Invalidation[] | undefined {
  useFollowed('source', sourceId)
  return useStoreQuery<Record<keyof Invalidation, unknown>>(
    `select i.id, i.at, i.handle, i.table_schema, i.table_name, i.where_clause, i.cause,
            i.clients, i.bytes_reread
       from source_invalidations i
       join sources s on s.id = i.source_id and s.team_id in ${OWNER_TEAMS}
      where i.source_id::text = $1
      order by i.at desc, i.id
      limit $2`,
    [sourceId, limit],
  )?.rows.map((row) => ({
    id: String(row.id),
    at: iso(row.at),
    handle: String(row.handle),
    table_schema: String(row.table_schema),
    table_name: String(row.table_name),
    where_clause: row.where_clause == null ? null : String(row.where_clause),
    cause: String(row.cause),
    clients: num(row.clients),
    bytes_reread: num(row.bytes_reread),
  }))
}

/** How many live shapes the source has and how many clients read them now. */
export function useRotationLoad(sourceId: string): RotationLoad | undefined {
  useFollowed('source', sourceId)
  const row = useStoreQuery<{ shapes: unknown; clients: unknown }>(
    `select count(*) as shapes, coalesce(sum(h.clients), 0) as clients
       from source_shapes h
       join sources s on s.id = h.source_id and s.team_id in ${OWNER_TEAMS}
      where h.source_id::text = $1`,
    [sourceId],
  )?.rows[0]
  return row && { shapes: num(row.shapes), clients: num(row.clients) }
}
