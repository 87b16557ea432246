// The invalidation log's rows (`source_invalidations`, migrations/server/0020_shape_metrics.sql)
// and their events: each rotation the engine recorded, copied out once; the bytes its clients
// re-read, updated while its successor serves them; one `shapes_invalidated` event per cause
// at a time, so a cache clear of 500 shapes is one line of the event log, not 500.
import { randomUUID } from 'node:crypto'
import type { Invalidation } from '../../../engine/index.ts'
import {
  SOURCE_EVENTS,
  type InvalidationCause,
} from '../../../shared/sources.ts'
import { transaction, type Db } from '../../platform/db/database.ts'
import { WHERE_SHOWN_MAX } from './plan.ts'

/** The newest rows kept per source. */
const INVALIDATIONS_KEPT = 1_000

/** A rotation written, whose clients and re-read bytes may still grow. */
export type WrittenInvalidation = {
  id: string
  clients: number
  bytes: number
  until: number
}

export type GrownInvalidation = { id: string; clients: number; bytes: number }

const clip = (text: string | null) =>
  text !== null && text.length > WHERE_SHOWN_MAX
    ? `${text.slice(0, WHERE_SHOWN_MAX)}…`
    : text

/**
 * Writes the rotations not written yet (`fresh`) with their events, and the clients and
 * re-read bytes of those written before that grew (`grown`). Answers the fresh ones' rows, by sequence number.
 */
export async function writeInvalidations(
  db: Db,
  sourceId: string,
  fresh: readonly Invalidation[],
  grown: readonly GrownInvalidation[],
  instanceId: string,
): Promise<Map<number, WrittenInvalidation>> {
  const written = new Map<number, WrittenInvalidation>()
  const rows = fresh.map((entry) => {
    const id = randomUUID()
    written.set(entry.seq, {
      id,
      clients: entry.clients,
      bytes: entry.bytesReread,
      until: entry.rereadUntil,
    })
    return {
      id,
      at: entry.at,
      handle: entry.handle,
      table_schema: entry.table.schema,
      table_name: entry.table.name,
      where_clause: clip(entry.where),
      // The engine's causes are the product's (the table checks the same list).
      cause: entry.cause satisfies InvalidationCause,
      detail: entry.detail,
      clients: entry.clients,
      bytes_reread: entry.bytesReread,
    }
  })
  await transaction(db, async (client) => {
    if (rows.length > 0) {
      await client.query(
        `insert into source_invalidations (id, source_id, at, handle, table_schema,
                table_name, where_clause, cause, detail, clients, bytes_reread)
         select r.id, $1, to_timestamp(r.at / 1000.0), r.handle, r.table_schema,
                r.table_name, r.where_clause, r.cause, r.detail, r.clients, r.bytes_reread
           from jsonb_to_recordset($2::jsonb) as r(id uuid, at float8, handle text,
                table_schema text, table_name text, where_clause text, cause text,
                detail text, clients integer, bytes_reread bigint)
          where exists (select 1 from sources where id = $1)`,
        [sourceId, JSON.stringify(rows)],
      )
      // One event per cause, in the order the causes first came, in the same transaction.
      await client.query(
        `insert into source_event_logs (source_id, event_name, event_details, instance_id)
         select $1, $2, jsonb_build_object('cause', r.cause, 'shapes', count(*)), $4
           from jsonb_to_recordset($3::jsonb) as r(cause text, at float8)
          where exists (select 1 from sources where id = $1)
          group by r.cause order by min(r.at)`,
        [
          sourceId,
          SOURCE_EVENTS.shapesInvalidated,
          JSON.stringify(rows),
          instanceId,
        ],
      )
      await client.query(
        `delete from source_invalidations where source_id = $1 and id in (
           select id from source_invalidations where source_id = $1
            order by at desc offset $2)`,
        [sourceId, INVALIDATIONS_KEPT],
      )
    }
    if (grown.length > 0)
      await client.query(
        `update source_invalidations i set bytes_reread = g.bytes, clients = g.clients
           from jsonb_to_recordset($2::jsonb) as g(id uuid, clients integer, bytes bigint)
          where i.source_id = $1 and i.id = g.id`,
        [sourceId, JSON.stringify(grown)],
      )
  })
  return written
}
