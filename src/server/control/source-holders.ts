// The source_holders table (migration 0012): which server holds a source's claim and where
// other servers reach it. Written by claims.ts on the claims connection, read by the forwarder.
import type { Db } from './database.ts'

type Queryable = Pick<Db, 'query'>

export type Holder = { instanceId: string; internalUrl: string }

export async function recordHolder(
  db: Queryable,
  sourceId: string,
  holder: Holder,
): Promise<void> {
  // The source may be gone (force-deleted) meanwhile: then there is nothing to record.
  await db.query(
    `insert into source_holders (source_id, instance_id, internal_url)
     select id, $2, $3 from sources where id = $1
     on conflict (source_id) do update
       set instance_id = excluded.instance_id, internal_url = excluded.internal_url,
           claimed_at = now()`,
    [sourceId, holder.instanceId, holder.internalUrl],
  )
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
