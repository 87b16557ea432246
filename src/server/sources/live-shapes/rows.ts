// The reads and writes of `source_shapes` (migrations/server/0005_source_shapes.sql): one
// source's rows cleared, a plan written in one transaction, one shape's row deleted with its
// txid (the dashboard waits for that change to sync).
import {
  transaction,
  transactionWithTxid,
  type Db,
} from '../../platform/db/database.ts'
import { COUNTER_COLUMNS, type ShapeWrites } from './plan.ts'

// The columns an update of a row's counters sets, and compares, as the plan names them.
const COUNTERS = COUNTER_COLUMNS.join(', ')
const EXCLUDED = COUNTER_COLUMNS.map((c) => `excluded.${c}`).join(', ')
const STORED = COUNTER_COLUMNS.map((c) => `s.${c}`).join(', ')

/** Removes a source's rows; answers when each shape was last read, by handle (ms). */
export async function clearShapeRows(
  db: Db,
  sourceId: string,
): Promise<Map<string, number>> {
  const { rows } = await db.query<{ handle: string; read: number | null }>(
    `delete from source_shapes where source_id = $1
     returning handle, (extract(epoch from last_read_at) * 1000)::float8 as read`,
    [sourceId],
  )
  const reads = new Map<string, number>()
  for (const row of rows) if (row.read !== null) reads.set(row.handle, row.read)
  return reads
}

/**
 * Writes a plan. A row whose counters are all as stored is left alone, so it syncs nothing;
 * rows of a source that is gone (forgotten meanwhile) are not written.
 */
export async function writeShapeRows(
  db: Db,
  sourceId: string,
  { upserts, deletes }: ShapeWrites,
): Promise<void> {
  await transaction(db, async (client) => {
    if (deletes.length > 0)
      await client.query(
        'delete from source_shapes where source_id = $1 and handle = any($2::text[])',
        [sourceId, deletes],
      )
    if (upserts.length === 0) return
    await client.query(
      `insert into source_shapes as s (source_id, handle, table_schema, table_name,
              where_clause, params, created_at, last_rotation_at, last_rotation_cause,
              ${COUNTERS})
       select $1, r.handle, r.table_schema, r.table_name, r.where_clause, r.params,
              to_timestamp(r.created_at / 1000.0),
              to_timestamp(r.last_rotation_at / 1000.0), r.last_rotation_cause,
              r.row_count, r.log_bytes, to_timestamp(r.last_read_at / 1000.0), r.clients,
              r.requests, r.bytes_sent, r.changes_written, r.requests_per_minute, r.bytes_per_minute, r.changes_per_minute,
              r.stalled_requests, r.log_entries, r.snapshot_ms
         from jsonb_to_recordset($2::jsonb) as r(handle text, table_schema text,
              table_name text, where_clause text, params jsonb, created_at float8,
              last_rotation_at float8, last_rotation_cause text, row_count bigint,
              log_bytes bigint, last_read_at float8, clients integer, requests bigint,
              bytes_sent bigint, changes_written bigint, requests_per_minute float8, bytes_per_minute float8,
              changes_per_minute float8, stalled_requests integer, log_entries bigint,
              snapshot_ms integer)
        where exists (select 1 from sources where id = $1)
       on conflict (source_id, handle) do update
          set (${COUNTERS}) = (${EXCLUDED})
        where (${STORED}) is distinct from (${EXCLUDED})`,
      [sourceId, JSON.stringify(upserts)],
    )
  })
}

/** Deletes one shape's row; `deleted`: whether there was one. */
export async function deleteShapeRow(
  db: Db,
  sourceId: string,
  handle: string,
): Promise<{ deleted: boolean; txid: number }> {
  const { result, txid } = await transactionWithTxid(db, async (client) => {
    const { rowCount } = await client.query(
      'delete from source_shapes where source_id = $1 and handle = $2',
      [sourceId, handle],
    )
    return rowCount === 1
  })
  return { deleted: result, txid }
}
