// A source's figures in the control plane (migrations/server/0020_shape_metrics.sql): each
// sample is a minute point and folds into its hour's point, in one transaction that also drops
// what is past each resolution's retention. The hour point is the running aggregate of its
// minutes: rates averaged over the samples, gauges (retained WAL, lag, clients) at their peak,
// snapshots summed with their longest. So the day and week charts need no pass that rolls
// minutes up, and an hour in progress is already there.
import type pg from 'pg'
import { RETENTION_MS } from '../../../shared/source-metrics.ts'
import { transaction, type Db } from '../../platform/db/database.ts'
import {
  SHAPES_PER_POINT,
  type ShapePoint,
  type SourcePoint,
} from './sample.ts'

const averaged = (column: string) =>
  `${column} = (m.${column} * m.samples + excluded.${column}) / (m.samples + 1)`
const peak = (column: string) =>
  `${column} = greatest(m.${column}, excluded.${column})`

/** Writes the sample taken at `at` (ms since the epoch) and prunes the source's old points. */
export async function writeMetricPoint(
  db: Db,
  sourceId: string,
  at: number,
  point: SourcePoint,
  shapes: readonly ShapePoint[],
): Promise<void> {
  await transaction(db, async (client) => {
    // A source forgotten meanwhile: nothing to write (its rows went with it).
    const { rowCount } = await client.query(
      'select 1 from sources where id = $1 for key share',
      [sourceId],
    )
    if (rowCount === 0) return
    const values = [
      sourceId,
      at,
      point.changes_per_second,
      point.writes_per_minute,
      point.retained_wal_bytes,
      point.lag_bytes,
      point.clients,
      point.requests_per_minute,
      point.bytes_per_minute,
      point.snapshots,
      point.snapshot_ms_max,
    ]
    for (const resolution of ['minute', 'hour'] as const)
      await client.query(
        `insert into source_metrics as m (source_id, resolution, at, samples,
                changes_per_second, writes_per_minute, retained_wal_bytes, lag_bytes,
                clients, requests_per_minute, bytes_per_minute, snapshots, snapshot_ms_max)
         values ($1, '${resolution}', date_trunc($12, to_timestamp($2 / 1000.0)), 1,
                 $3, $4, $5, $6, $7, $8, $9, $10, $11)
         on conflict (source_id, resolution, at) do update set
           ${averaged('changes_per_second')}, ${averaged('writes_per_minute')},
           ${peak('retained_wal_bytes')}, ${peak('lag_bytes')}, ${peak('clients')},
           ${averaged('requests_per_minute')}, ${averaged('bytes_per_minute')},
           snapshots = m.snapshots + excluded.snapshots, ${peak('snapshot_ms_max')},
           samples = m.samples + 1`,
        // A minute point is the sample itself; milliseconds keep two samples apart.
        [...values, resolution === 'minute' ? 'milliseconds' : 'hour'],
      )
    if (shapes.length > 0)
      for (const resolution of ['minute', 'hour'] as const)
        await client.query(
          `insert into source_shape_metrics as m (source_id, resolution, at, handle, label,
                  samples, clients, requests_per_minute, bytes_per_minute)
           select $1, '${resolution}', date_trunc($4, to_timestamp($2 / 1000.0)), s.handle,
                  s.label, 1, s.clients, s.requests_per_minute, s.bytes_per_minute
             from jsonb_to_recordset($3::jsonb) as s(handle text, label text,
                  clients integer, requests_per_minute float8, bytes_per_minute float8)
           on conflict (source_id, resolution, at, handle) do update set
             ${peak('clients')}, ${averaged('requests_per_minute')},
             ${averaged('bytes_per_minute')}, samples = m.samples + 1`,
          [
            sourceId,
            at,
            JSON.stringify(shapes),
            resolution === 'minute' ? 'milliseconds' : 'hour',
          ],
        )
    await pruneMetrics(client, sourceId, at)
  })
}

/**
 * Drops points past their resolution's retention, and an hour's shape points beyond its
 * busiest (each minute keeps its own busiest, which over an hour may be many shapes).
 */
async function pruneMetrics(
  client: pg.PoolClient,
  sourceId: string,
  at: number,
): Promise<void> {
  const args = [sourceId, at - RETENTION_MS.minute, at - RETENTION_MS.hour]
  const old = `source_id = $1 and ((resolution = 'minute' and at <= to_timestamp($2 / 1000.0))
                or (resolution = 'hour' and at <= to_timestamp($3 / 1000.0)))`
  await client.query(`delete from source_metrics where ${old}`, args)
  await client.query(`delete from source_shape_metrics where ${old}`, args)
  await client.query(
    `delete from source_shape_metrics d using (
       select handle, row_number() over (order by bytes_per_minute * samples desc,
              clients desc, handle) as rank
         from source_shape_metrics
        where source_id = $1 and resolution = 'hour'
          and at = date_trunc('hour', to_timestamp($2 / 1000.0))) r
      where d.source_id = $1 and d.resolution = 'hour'
        and d.at = date_trunc('hour', to_timestamp($2 / 1000.0))
        and d.handle = r.handle and r.rank > $3`,
    [sourceId, at, SHAPES_PER_POINT],
  )
}
