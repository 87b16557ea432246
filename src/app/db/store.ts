// The tab's handle on the local store: PGlite in a shared worker-backed database, opened after
// first paint, and told whose data it holds (a different user empties it first).
import type { PGliteInterface } from '@electric-sql/pglite'
import { live, type LiveNamespace } from '@electric-sql/pglite/live'
import { electricSync } from '@electric-sql/pglite-sync'
import { PGliteWorker } from '@electric-sql/pglite/worker'
import { whenTrue } from './await-txid.ts'
import { readOnce } from './direct-requests.ts'
import { startSync } from './sync.ts'
import { rememberStore, rememberSyncedFor } from './hints.ts'
import { startWorkerThread } from './worker-thread.ts'

export type LocalStore = PGliteWorker & { live: LiveNamespace }

let opening: Promise<LocalStore> | null = null

export function openStore(): Promise<LocalStore> {
  opening ??= start()
  return opening
}

async function start(): Promise<LocalStore> {
  // Usually started at boot already (main.tsx); then this returns the running thread.
  const { port, leader, failed } = startWorkerThread()
  const pg = await Promise.race([
    PGliteWorker.create(port, {
      extensions: { live, electric: electricSync() },
    }),
    failed,
  ])
  await Promise.race([pg.waitReady, failed])
  // PGliteWorker's own first query (its array types) holds the worker's lock and needs this
  // tab's main thread for each of its round trips. Begun as the first screen renders, it held
  // the lock through the render, and the screen's one-off reads waited behind it (0.1 s
  // typically, over 1 s at worst). A query queued behind it returns once it is done, and
  // costs little on an idle main thread.
  await pg.query('select 1')
  // Only the tab whose worker holds the database syncs; when it closes, the next one does.
  // It starts when the page asks (startSyncing), so the page's first reads of what an earlier
  // visit stored do not queue behind the sync's start-up.
  void Promise.all([leader, syncWanted]).then(() =>
    startSync(pg as unknown as PGliteInterface, location.origin),
  )
  return pg as unknown as LocalStore
}

let wantSync: () => void = () => {}
const syncWanted = new Promise<void>((resolve) => (wantSync = resolve))

/** Lets the sync start in this tab (if it leads); later calls change nothing. */
export function startSyncing(): void {
  wantSync()
}

/** Makes the store hold this user's data; the syncing tab empties it if it held another's. */
export async function claimStore(userId: string): Promise<LocalStore> {
  const pg = await openStore()
  // Usually it already is theirs: a read then, not a write.
  if ((await localOwner(pg)) !== userId) {
    rememberSyncedFor(null)
    await pg.query(
      `insert into local_owner (user_id) values ($1)
       on conflict (singleton) do update set user_id = excluded.user_id`,
      [userId],
    )
  }
  rememberStore(true)
  return pg
}

/** Signing out: nobody owns the store, so it is emptied. */
export async function releaseStore(): Promise<void> {
  const pg = await openStore()
  rememberStore(false)
  await pg.query('delete from local_owner')
  startSyncing()
  // The syncing tab stops its shapes, then empties the tables. Waiting for that keeps the
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
