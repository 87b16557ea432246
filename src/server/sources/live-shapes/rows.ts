// The reads and writes of `source_shapes` (migrations/server/0005_source_shapes.sql): one
// source's rows cleared, a plan written in one transaction, one shape's row deleted with its
// txid (the dashboard waits for that change to sync).
import {
  transaction,
  transactionWithTxid,
  type Db,
} from '../../platform/db/database.ts'
import type { ShapeWrites } from './plan.ts'

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
              where_clause, params, row_count, log_bytes, created_at, last_read_at)
       select $1, r.handle, r.table_schema, r.table_name, r.where_clause, r.params,
              r.row_count, r.log_bytes, to_timestamp(r.created_at / 1000.0),
              to_timestamp(r.last_read_at / 1000.0)
         from jsonb_to_recordset($2::jsonb) as r(handle text, table_schema text,
              table_name text, where_clause text, params jsonb, row_count bigint,
              log_bytes bigint, created_at float8, last_read_at float8)
        where exists (select 1 from sources where id = $1)
       on conflict (source_id, handle) do update
          set row_count = excluded.row_count, log_bytes = excluded.log_bytes,
              last_read_at = excluded.last_read_at
        where (s.row_count, s.log_bytes, s.last_read_at) is distinct from
              (excluded.row_count, excluded.log_bytes, excluded.last_read_at)`,
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
