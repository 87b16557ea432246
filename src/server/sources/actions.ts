// The writes behind the source actions: rename, the events of a restart or a cleared cache,
// delete (marked here, removed by the runtime) and forget. Each is one transaction and answers
// its txid, so the browser can wait for the synced row.
import { SOURCE_EVENTS, type SourceEventName } from '../../shared/sources.ts'
import { transactionWithTxid, type Db } from '../platform/db/database.ts'
import { logSourceEvent } from './sources.ts'

export type SourceEvent = {
  name: SourceEventName
  details: Record<string, unknown>
}

// States in which the engine has given up on the source: only then may its record be dropped
// without removing the slot first.
const FORGETTABLE = ['error', 'delete_failed']

/** `name`: null takes the name away (the dashboard then shows the id). */
export async function renameSource(
  db: Db,
  sourceId: string,
  name: string | null,
): Promise<number> {
  const { txid } = await transactionWithTxid(db, (client) =>
    client.query('update sources set name = $2 where id = $1', [
      sourceId,
      name,
    ]),
  )
  return txid
}

/** Logs an action's event on its own (restart, cleared cache, a retried removal). */
export async function logSourceAction(
  db: Db,
  sourceId: string,
  event: SourceEvent,
  instanceId: string,
): Promise<number> {
  const { txid } = await transactionWithTxid(db, (client) =>
    logSourceEvent(client, sourceId, event.name, event.details, instanceId),
  )
  return txid
}

/** Marks the source deleted with its event; the runtime removes slot, publication and row. */
export async function markSourceDeleted(
  db: Db,
  sourceId: string,
  instanceId: string,
): Promise<number> {
  const { txid } = await transactionWithTxid(db, async (client) => {
    await client.query(
      `update sources set deleted_at = now() where id = $1 and deleted_at is null`,
      [sourceId],
    )
    await logSourceEvent(
      client,
      sourceId,
      SOURCE_EVENTS.deleteRequested,
      {},
      instanceId,
    )
  })
  return txid
}

/**
 * Drops the record of a source the engine gave up on, never touching the user's database.
 * Null when the source is in no such state.
 */
export async function forgetSource(
  db: Db,
  sourceId: string,
): Promise<number | null> {
  const { result: removed, txid } = await transactionWithTxid(
    db,
    async (client) => {
      const { rowCount } = await client.query(
        `delete from sources where id = $1 and state = any($2)`,
        [sourceId, FORGETTABLE],
      )
      return rowCount === 1
    },
  )
  return removed ? txid : null
}
