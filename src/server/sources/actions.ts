// The writes behind the source actions: name, project and environment, the events of a restart or a cleared cache,
// delete (marked here, removed by the runtime) and forget. Each is one transaction and answers
// its txid, so the browser can wait for the synced row.
import {
  SOURCE_EVENTS,
  SOURCE_LABEL_COLUMNS,
  type SourceEventName,
  type SourceLabels,
} from '../../shared/sources.ts'
import { transactionWithTxid, type Db } from '../platform/db/database.ts'
import { logSourceEvent } from './sources.ts'

export type SourceEvent = {
  name: SourceEventName
  details: Record<string, unknown>
}

// States in which the engine has given up on the source: only then may its record be dropped
// without removing the slot first.
const FORGETTABLE = ['error', 'delete_failed']

/**
 * Sets each column `changes` holds (null takes it away; absent leaves it) and answers all
 * three as stored, with the txid. Null when the source is gone.
 */
export async function updateSource(
  db: Db,
  sourceId: string,
  changes: Partial<SourceLabels>,
): Promise<{ labels: SourceLabels; txid: number } | null> {
  const columns = SOURCE_LABEL_COLUMNS.filter(
    (column) => changes[column] !== undefined,
  )
  const sets = columns.map((column, i) => `${column} = $${i + 2}`)
  const { result, txid } = await transactionWithTxid(db, async (client) => {
    const { rows } = await client.query<SourceLabels>(
      `update sources set ${sets.join(', ')} where id = $1
       returning name, project, environment`,
      [sourceId, ...columns.map((column) => changes[column])],
    )
    return rows[0] ?? null
  })
  return result && { labels: result, txid }
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
