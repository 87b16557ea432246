// Writes go to the REST API, which answers with the transaction id of the change. The UI then
// waits until that change has synced into the local store, so what it shows next already
// includes the write (no flash of old data, no optimistic guesses).
import type { PGliteInterface } from '@electric-sql/pglite'
import type { LiveNamespace } from '@electric-sql/pglite/live'
import {
  SOURCE_LABEL_COLUMNS,
  type SourceLabels,
} from '../../../shared/sources.ts'
import type { SyncedTableName } from '../../../shared/synced-tables.ts'

/**
 * The synced tables whose rows a wait can name by `id` (shared/synced-tables.ts): a table
 * renamed or dropped there fails the callers' types here, not their queries in a browser.
 */
export type TableWithId = Extract<
  SyncedTableName,
  'sources' | 'source_event_logs' | 'source_setup_forms' | 'alert_destinations'
>

type LiveStore = Pick<PGliteInterface, 'query'> & { live: LiveNamespace }

const TXID_WAIT_MS = 15_000

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

/**
 * Resolves true once the live query's single `ok` column reads true, false when `timeoutMs`
 * passes first. The one way this module waits on the synced store.
 */
export async function whenTrue(
  store: LiveStore,
  sql: string,
  params: unknown[],
  timeoutMs: number,
): Promise<boolean> {
  let done: (ok: boolean) => void = () => {}
  const settled = new Promise<boolean>((resolve) => (done = resolve))
  const live = await store.live.query<{ ok: boolean }>(
    sql,
    params,
    (result) => {
      if (result.rows[0]?.ok) done(true)
    },
  )
  if (live.initialResults.rows[0]?.ok) done(true)
  const timer = setTimeout(() => done(false), timeoutMs)
  try {
    return await settled
  } finally {
    clearTimeout(timer)
    await live.unsubscribe()
  }
}

/** Resolves once a row of `table` synced by transaction `txid` is in the local store. */
export async function awaitTxid(
  store: LiveStore,
  table: SyncedTableName,
  txid: number,
  timeoutMs = TXID_WAIT_MS,
): Promise<void> {
  await untilSynced(
    store,
    `select exists (select 1 from ${table} where synced_txids @> array[$1::bigint]) as ok`,
    [txid],
    txid,
    timeoutMs,
  )
}

/**
 * Resolves once the row `id`, new in `table` by transaction `txid`, is in the local store.
 * Its txid alone is not enough: a shape that starts (or refetches) after the write gets the
 * row in its snapshot, and snapshot rows carry no txids. A new id can only have come from this
 * write, so the row being there shows it either way.
 */
export async function awaitCreated(
  store: LiveStore,
  table: TableWithId,
  id: string,
  txid: number,
  timeoutMs = TXID_WAIT_MS,
): Promise<void> {
  await untilSynced(
    store,
    `select exists (select 1 from ${table}
                     where id::text = $1 or synced_txids @> array[$2::bigint]) as ok`,
    [id, txid],
    txid,
    timeoutMs,
  )
}

/** `sql` (as whenTrue) reads true in time, or the write of `txid` has not synced: an error. */
async function untilSynced(
  store: LiveStore,
  sql: string,
  params: unknown[],
  txid: number,
  timeoutMs: number,
): Promise<void> {
  if (!(await whenTrue(store, sql, params, timeoutMs)))
    throw new TxidTimeoutError(txid, timeoutMs)
}

/**
 * Runs a REST write that answers `{ txid }`, then waits for its change to sync into `table`.
 * The write's own answer is returned.
 */
export async function writeAndAwait<T extends { txid: number }>(
  store: LiveStore,
  table: SyncedTableName,
  write: () => Promise<T>,
  timeoutMs = TXID_WAIT_MS,
): Promise<T> {
  const answer = await write()
  await awaitTxid(store, table, answer.txid, timeoutMs)
  return answer
}

/**
 * After a PATCH of a source answered `txid` and the labels as stored: resolves once the synced
 * row carries each of `labels` given. The values, not only the txid: the engine's health
 * measurement (every 15 s) may write the row again right after, and its change replaces the
 * row's txids before this one is seen.
 */
export async function awaitSourceLabels(
  store: LiveStore,
  sourceId: string,
  labels: Partial<SourceLabels>,
  txid: number,
  timeoutMs = TXID_WAIT_MS,
): Promise<void> {
  const columns = SOURCE_LABEL_COLUMNS.filter(
    (column) => labels[column] !== undefined,
  )
  const matches = columns.map(
    (column, i) => ` and ${column} is not distinct from $${i + 2}`,
  )
  await untilSynced(
    store,
    `select exists (select 1 from sources
                     where id::text = $1${matches.join('')}) as ok`,
    [sourceId, ...columns.map((column) => labels[column])],
    txid,
    timeoutMs,
  )
}

/**
 * After a rotation answered `txid` and the new secret: resolves once the synced row holds that
 * secret (a later rotation's secret would differ: the txid then shows this one synced).
 */
export async function awaitSourceSecret(
  store: LiveStore,
  sourceId: string,
  secret: string,
  txid: number,
  timeoutMs = TXID_WAIT_MS,
): Promise<void> {
  await untilSynced(
    store,
    `select exists (select 1 from sources
                     where id::text = $1
                       and (source_secret = $2 or synced_txids @> array[$3::bigint])) as ok`,
    [sourceId, secret, txid],
    txid,
    timeoutMs,
  )
}

/** After the previous secret's grace was ended by `txid`: once the synced row has none. */
export async function awaitSecretGraceEnded(
  store: LiveStore,
  sourceId: string,
  txid: number,
  timeoutMs = TXID_WAIT_MS,
): Promise<void> {
  await untilSynced(
    store,
    `select exists (select 1 from sources
                     where id::text = $1 and previous_source_secret is null) as ok`,
    [sourceId],
    txid,
    timeoutMs,
  )
}

/**
 * After a live shape's delete answered `txid`: resolves once its row has left the store. A
 * deleted row carries no txid to look for; its going is what shows.
 */
export async function awaitShapeDeleted(
  store: LiveStore,
  sourceId: string,
  handle: string,
  txid: number,
  timeoutMs = TXID_WAIT_MS,
): Promise<void> {
  await untilSynced(
    store,
    `select not exists (select 1 from source_shapes
                         where source_id::text = $1 and handle = $2) as ok`,
    [sourceId, handle],
    txid,
    timeoutMs,
  )
}

/**
 * After a setup form's delete answered `txid`: resolves once the synced row shows it deleted
 * (by its txid, or by deleted_at when a snapshot brought it).
 */
export async function awaitSetupFormDeleted(
  store: LiveStore,
  formId: string,
  txid: number,
  timeoutMs = TXID_WAIT_MS,
): Promise<void> {
  await awaitSoftDeleted(store, 'source_setup_forms', formId, txid, timeoutMs)
}

/** Resolves once a soft delete (deleted_at set by `txid`) of the row `id` has synced. */
export async function awaitSoftDeleted(
  store: LiveStore,
  table: Extract<TableWithId, 'source_setup_forms' | 'alert_destinations'>,
  id: string,
  txid: number,
  timeoutMs = TXID_WAIT_MS,
): Promise<void> {
  await untilSynced(
    store,
    `select exists (select 1 from ${table}
                     where id::text = $1
                       and (deleted_at is not null or synced_txids @> array[$2::bigint])) as ok`,
    [id, txid],
    txid,
    timeoutMs,
  )
}

/** How long a deleted source may take to leave the store: the engine drops its slot first. */
const SOURCE_REMOVAL_WAIT_MS = 15_000

/**
 * Where a deleted source stands in the store, read from its synced row in one query:
 * 'gone' (removed), 'failed' (deleted_at set, state error or delete_failed: the slot could
 * not be removed), 'requested' (the deletion has synced, the engine is still at it) or
 * 'unsynced'. The deletion counts as synced once the row carries `txid` or deleted_at: the
 * engine's next write (a failed removal, moments later) replaces the row's txids, and both may
 * arrive together, so the txid alone may never be seen.
 */
const REMOVAL_STATUS = `
  select coalesce((
    select case
             when deleted_at is not null and state in ('error', 'delete_failed') then 'failed'
             when deleted_at is not null or synced_txids @> array[$2::bigint] then 'requested'
             else 'unsynced'
           end
      from sources where id::text = $1), 'gone') as status`

type RemovalStatus = 'gone' | 'failed' | 'requested' | 'unsynced'

/**
 * After DELETE answered `txid`: resolves 'gone' as soon as the source has left the store,
 * 'failed' as soon as its row shows the removal failed, or 'pending' when its deletion has
 * synced but neither happened within `removalMs`. Throws TxidTimeoutError only when the
 * deletion itself has not synced within `timeoutMs`.
 */
export async function awaitSourceRemoval(
  store: LiveStore,
  sourceId: string,
  txid: number,
  timeoutMs = TXID_WAIT_MS,
  removalMs = SOURCE_REMOVAL_WAIT_MS,
): Promise<'gone' | 'failed' | 'pending'> {
  let settle: (status: RemovalStatus) => void = () => {}
  const settled = new Promise<RemovalStatus>((resolve) => (settle = resolve))
  let removalTimer: ReturnType<typeof setTimeout> | undefined
  const seen = (status: RemovalStatus | undefined) => {
    if (status === 'gone' || status === 'failed') settle(status)
    // Synced: from now on only the engine's removal is waited for.
    else if (status === 'requested' && removalTimer === undefined) {
      clearTimeout(syncTimer)
      removalTimer = setTimeout(() => settle('requested'), removalMs)
    }
  }
  const syncTimer = setTimeout(() => settle('unsynced'), timeoutMs)
  const live = await store.live.query<{ status: RemovalStatus }>(
    REMOVAL_STATUS,
    [sourceId, txid],
    (result) => seen(result.rows[0]?.status),
  )
  seen(live.initialResults.rows[0]?.status)
  try {
    const status = await settled
    if (status === 'unsynced') throw new TxidTimeoutError(txid, timeoutMs)
    return status === 'requested' ? 'pending' : status
  } finally {
    clearTimeout(syncTimer)
    clearTimeout(removalTimer)
    await live.unsubscribe()
  }
}

/**
 * After a forget (DELETE with force_delete) answered `txid`: resolves once the row has left the
 * store. Its row already reads as failed, so only its going shows the forget has synced.
 */
export async function awaitSourceForgotten(
  store: LiveStore,
  sourceId: string,
  txid: number,
  timeoutMs = TXID_WAIT_MS,
): Promise<void> {
  await untilSynced(
    store,
    'select not exists (select 1 from sources where id::text = $1) as ok',
    [sourceId],
    txid,
    timeoutMs,
  )
}
