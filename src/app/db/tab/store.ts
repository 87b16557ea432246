// The tab's handle on the local store: PGlite in a shared worker-backed database, opened after
// first paint, and told whose data it holds (a different user empties it first).
import { live, type LiveNamespace } from '@electric-sql/pglite/live'
import { LeaderChangedError } from '@electric-sql/pglite/worker'
import { whenTrue } from '../shared/await-txid.ts'
import { readOnce } from './direct-requests.ts'
import { rememberStore, rememberSyncedFor, syncedFor } from './hints.ts'
import { claimOwner } from '../shared/local-owner.ts'
import { closeStore } from './store-close.ts'
import { FIRST_SYNC, START_SYNC } from '../shared/worker-messages.ts'
import { prefetchShapes } from './shape-prefetch.ts'
import { StoreClient } from './store-client.ts'
import { startWorkerThread } from './worker-thread.ts'

export type LocalStore = StoreClient & { live: LiveNamespace }

let handle: LocalStore | null = null
let firstSyncStarted: string | null = null
let opening: Promise<LocalStore> | null = null

/**
 * The store, open or not: its statements wait until it is (a screen showing the last visit's
 * rows renders with it before that, see last-screen.ts). openStore says when it is, or why not.
 */
export function storeHandle(): LocalStore {
  if (handle) return handle
  // Usually started at boot already (main.tsx); then this returns the running thread.
  handle = new StoreClient(startWorkerThread().port, {
    extensions: { live },
  }) as LocalStore
  addEventListener('unhandledrejection', absorbLeaderChange)
  return handle
}

// When the tab whose worker held the database closes, another tab's worker is elected, and
// PGliteWorker rejects this tab's statements then in flight with LeaderChangedError, among them
// live queries' own refreshes that nothing awaits. The live queries are set up again on the
// new holder (store-client.ts; fault F10, tests/faults/f10-tab-closed.ts, checks that the
// screen follows a change and the rows are whole), so only that rejection is absorbed; any
// other still surfaces.
function absorbLeaderChange(event: PromiseRejectionEvent) {
  if (event.reason instanceof LeaderChangedError) event.preventDefault()
}

export function openStore(): Promise<LocalStore> {
  opening ??= start()
  return opening
}

async function start(): Promise<LocalStore> {
  const { failed } = startWorkerThread()
  const pg = storeHandle()
  await Promise.race([pg.waitReady, failed])
  performance.mark('sluice:pglite-ready')
  // Read as the first screen renders, the array types would hold up its reads that need them
  // (store-client.ts).
  await acrossLeaderChange(() => pg.arrayTypesRead())
  return pg
}

/**
 * `step`, asked again while it fails because the worker holding the database changed (its tab
 * closed, another worker elected): nothing it asked is known to be done. Steps safe to repeat.
 */
export async function acrossLeaderChange<T>(
  step: () => Promise<T>,
): Promise<T> {
  for (;;) {
    try {
      return await step()
    } catch (error) {
      if (!(error instanceof LeaderChangedError)) throw error
    }
  }
}

/**
 * Lets the sync start: in this tab's worker if it holds the database, or once it is elected
 * (store-worker.ts). Asked when the page has shown what the store held; later calls change
 * nothing.
 */
export function startSyncing(): void {
  startWorkerThread().post({ type: START_SYNC }, [])
}

/**
 * `userId` is signed in. Unless this browser has synced their data before, this tab asks for
 * their shapes' snapshots while Postgres starts (shape-prefetch.ts), and the worker makes the
 * store theirs as soon as it opens and starts the sync then, without waiting for this tab.
 */
export function startFirstSync(userId: string): void {
  // Once per page: every navigation asks (the dashboard's beforeLoad) until it is synced.
  if (syncedFor() === userId || firstSyncStarted === userId) return
  firstSyncStarted = userId
  // Whatever it said, the store does not hold this user's synced data.
  rememberSyncedFor(null)
  const { post } = startWorkerThread()
  post({ type: FIRST_SYNC, userId }, [])
  void prefetchShapes(post)
}

/** Makes the store hold this user's data; the sync empties it if it held another's. */
export async function claimStore(userId: string): Promise<LocalStore> {
  const pg = await openStore()
  // A claim lost with the holder's tab would leave this tab's sync unstarted (first-sync.ts).
  await acrossLeaderChange(async () => {
    // Usually it already is theirs: one direct read then.
    if ((await localOwner(pg)) !== userId) {
      rememberSyncedFor(null)
      await claimOwner(pg, userId)
    }
  })
  rememberStore(true)
  return pg
}

/**
 * Signing out: nobody owns the store, so it is emptied, then closed and its database deleted
 * (store-close.ts): the emptied tables' files still held the rows' bytes.
 */
export async function releaseStore(): Promise<void> {
  await emptyStore().finally(closeStore)
}

async function emptyStore(): Promise<void> {
  const pg = await openStore()
  rememberStore(false)
  await pg.query('delete from local_owner')
  startSyncing()
  // The sync stops its shapes, then empties the tables. Waiting for that keeps the
  // session alive until no shape request is in flight (otherwise they end in 401s).
  await whenTrue(
    pg,
    'select not exists (select 1 from users) as ok',
    [],
    RELEASE_WAIT_MS,
  )
}

const RELEASE_WAIT_MS = 5_000

/** Whose data the store holds; how the app knows who was signed in while offline. */
export async function localOwner(store: LocalStore): Promise<string | null> {
  const { rows } = await readOnce<{ user_id: string }>(
    store,
    'select user_id from local_owner',
    [],
  )
  return rows[0]?.user_id ?? null
}
