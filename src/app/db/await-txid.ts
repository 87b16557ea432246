// Writes go to the REST API, which answers with the transaction id of the change. The UI then
// waits until that change has synced into the local store, so what it shows next already
// includes the write (no flash of old data, no optimistic guesses).
import type { PGliteInterface } from '@electric-sql/pglite'
import type { LiveNamespace } from '@electric-sql/pglite/live'

export type SyncedTable =
  'users' | 'user_teams' | 'team_members' | 'sources' | 'source_event_logs'

type LiveStore = Pick<PGliteInterface, 'query'> & { live: LiveNamespace }

export const TXID_WAIT_MS = 15_000

export class TxidTimeoutError extends Error {
  constructor(
    readonly txid: number,
    waitedMs: number,
  ) {
    super(
      `The change was saved, but it has not reached this browser after ${Math.round(waitedMs / 1000)} s. ` +
        'It will show once the connection to the server recovers.',
    )
  }
}

/** Resolves once a row of `table` synced by transaction `txid` is in the local store. */
export async function awaitTxid(
  store: LiveStore,
  table: SyncedTable,
  txid: number,
  timeoutMs = TXID_WAIT_MS,
): Promise<void> {
  let done = () => {}
  const applied = new Promise<void>((resolve) => (done = resolve))
  const live = await store.live.query<{ applied: boolean }>(
    `select exists (select 1 from ${table} where synced_txids @> array[$1::bigint]) as applied`,
    [txid],
    (result) => {
      if (result.rows[0]?.applied) done()
    },
  )
  if (live.initialResults.rows[0]?.applied) done()
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new TxidTimeoutError(txid, timeoutMs)),
      timeoutMs,
    )
  })
  try {
    await Promise.race([applied, expired])
  } finally {
    clearTimeout(timer)
    await live.unsubscribe()
  }
}

/**
 * Runs a REST write that answers `{ txid }`, then waits for its change to sync into `table`.
 * The write's own answer is returned.
 */
export async function writeAndAwait<T extends { txid: number }>(
  store: LiveStore,
  table: SyncedTable,
  write: () => Promise<T>,
  timeoutMs = TXID_WAIT_MS,
): Promise<T> {
  const answer = await write()
  await awaitTxid(store, table, answer.txid, timeoutMs)
  return answer
}
