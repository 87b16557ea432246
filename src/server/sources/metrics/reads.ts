// The reads behind GET /api/v1/sources/{id}/shapes, /metrics and /invalidations: the rows the
// dashboard syncs, answered in the named fields (numbers as numbers, times as ISO
// text). The source is the caller's already (member-source.ts).
import {
  METRIC_WINDOWS,
  type MetricWindow,
} from '../../../shared/source-metrics.ts'
import type { Db } from '../../platform/db/database.ts'

/** How many rotations /invalidations answers: all the table keeps (invalidation-rows.ts). */
const INVALIDATIONS_LISTED = 1_000

export async function listLiveShapes(db: Db, sourceId: string) {
  const { rows } = await db.query(
    `select handle, table_schema || '.' || table_name as table, table_schema, table_name,
            where_clause as where, params, clients, requests::float8 as requests,
            bytes_sent::float8 as bytes_sent, changes_written::float8 as changes_written,
            requests_per_minute, bytes_per_minute, changes_per_minute, stalled_requests,
            log_entries::float8 as log_entries, row_count::float8 as rows,
            log_bytes::float8 as log_bytes, snapshot_ms, created_at, last_read_at,
            case when last_rotation_at is null then null
                 else json_build_object('at', last_rotation_at, 'cause', last_rotation_cause)
            end as last_rotation
       from source_shapes where source_id = $1
      order by bytes_per_minute desc, created_at, handle`,
    [sourceId],
  )
  return rows
}

export async function listMetricPoints(
  db: Db,
  sourceId: string,
  window: MetricWindow,
) {
  const { resolution, ms } = METRIC_WINDOWS[window]
  const { rows } = await db.query(
    `select at, changes_per_second, writes_per_minute,
            retained_wal_bytes::float8 as retained_wal_bytes, lag_bytes::float8 as lag_bytes,
            clients, requests_per_minute, bytes_per_minute, snapshots, snapshot_ms_max
       from source_metrics
      where source_id = $1 and resolution = $2 and at > now() - $3 * interval '1 millisecond'
      order by at`,
    [sourceId, resolution, ms],
  )
  return rows
}

export async function listInvalidations(db: Db, sourceId: string) {
  const { rows } = await db.query(
    `select at, handle, cause, clients, bytes_reread::float8 as bytes_reread, detail,
            table_schema || '.' || table_name as table, where_clause as where
       from source_invalidations where source_id = $1
      order by at desc, id limit $2`,
    [sourceId, INVALIDATIONS_LISTED],
  )
  return rows
}
