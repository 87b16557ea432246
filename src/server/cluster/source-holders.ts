// The source_holders table (migrations 0012, 0013): which server holds a source's claim, where
// other servers reach it, and which control-plane backend holds its lock with its last
// heartbeat. Written by claims.ts on the claims connection, read by the forwarder.
import type { Db } from '../platform/db/database.ts'

type Queryable = Pick<Db, 'query'>

export type Holder = { instanceId: string; internalUrl: string }

export async function recordHolder(
  db: Queryable,
  sourceId: string,
  holder: Holder,
): Promise<void> {
  // On the claims connection: its own backend is the one holding the lock. The start time is
  // read in Postgres, to the microsecond, so a later match on it is exact.
  // The source may be gone (force-deleted) meanwhile: then there is nothing to record.
  await db.query(
    `insert into source_holders
       (source_id, instance_id, internal_url, backend_pid, backend_start)
     select id, $2, $3, pg_backend_pid(),
            (select backend_start from pg_stat_activity where pid = pg_backend_pid())
       from sources where id = $1
     on conflict (source_id) do update
       set instance_id = excluded.instance_id, internal_url = excluded.internal_url,
           backend_pid = excluded.backend_pid, backend_start = excluded.backend_start,
           claimed_at = now(), heartbeat_at = now()`,
    [sourceId, holder.instanceId, holder.internalUrl],
  )
}

/** Says this server still answers for the claims its claims connection (`db`) holds. */
export async function heartbeat(
  db: Queryable,
  instanceId: string,
): Promise<void> {
  await db.query(
    `update source_holders set heartbeat_at = now()
      where instance_id = $1 and backend_pid = pg_backend_pid()`,
    [instanceId],
  )
}

/**
 * Ends the claims backend of every other server whose heartbeat on a source of `regions` (null:
 * any) is older than `staleMs`; its locks go with it. Only a backend still running with the
 * recorded pid and start time is ended. The names of the servers ended.
 */
export async function endStaleHolders(
  db: Queryable,
  instanceId: string,
  regions: readonly string[] | null,
  staleMs: number,
): Promise<string[]> {
  const { rows } = await db.query<{ instance_id: string; pid: number }>(
    `select stale.instance_id, a.pid from (
       select distinct h.instance_id, h.backend_pid, h.backend_start
         from source_holders h join sources s on s.id = h.source_id
        where h.instance_id <> $1
          and h.heartbeat_at < now() - make_interval(secs => $3::float8 / 1000)
          and ($2::text[] is null or s.region = any($2))
     ) stale
     join pg_stat_activity a
       on a.pid = stale.backend_pid and a.backend_start = stale.backend_start`,
    [instanceId, regions, staleMs],
  )
  // One backend at a time, by its pid alone: a terminate inside the query above could be
  // evaluated on backends the join would have filtered out.
  const ended: string[] = []
  for (const row of rows) {
    const { rows: done } = await db.query<{ ok: boolean }>(
      'select pg_terminate_backend($1) as ok',
      [row.pid],
    )
    if (done[0]?.ok) ended.push(row.instance_id)
  }
  return ended
}

/** True when the source's holder row names another server (none recorded: false). */
export async function heldElsewhere(
  db: Queryable,
  sourceId: string,
  instanceId: string,
): Promise<boolean> {
  const { rows } = await db.query(
    'select 1 from source_holders where source_id = $1 and instance_id <> $2',
    [sourceId, instanceId],
  )
  return rows.length > 0
}

/** Removes this server's row for the source (never a row another server wrote since). */
export async function clearHolder(
  db: Queryable,
  sourceId: string,
  instanceId: string,
): Promise<void> {
  await db.query(
    'delete from source_holders where source_id = $1 and instance_id = $2',
    [sourceId, instanceId],
  )
}

export async function clearHolders(
  db: Queryable,
  instanceId: string,
): Promise<void> {
  await db.query('delete from source_holders where instance_id = $1', [
    instanceId,
  ])
}

export async function findHolder(
  db: Queryable,
  sourceId: string,
): Promise<Holder | null> {
  const { rows } = await db.query<{
    instance_id: string
    internal_url: string
  }>(
    'select instance_id, internal_url from source_holders where source_id = $1',
    [sourceId],
  )
  const row = rows[0]
  return row
    ? { instanceId: row.instance_id, internalUrl: row.internal_url }
    : null
}
