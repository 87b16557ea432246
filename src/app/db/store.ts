// The tab's handle on the local store: PGlite in a shared worker-backed database, opened after
// first paint, and told whose data it holds (a different user empties it first).
import type { PGliteInterface } from '@electric-sql/pglite'
import { live, type LiveNamespace } from '@electric-sql/pglite/live'
import { electricSync } from '@electric-sql/pglite-sync'
import { PGliteWorker } from '@electric-sql/pglite/worker'
import { startSync } from './sync.ts'
import { STORE_FAILED, STORE_LEADER } from './worker-messages.ts'

export type LocalStore = PGliteWorker & { live: LiveNamespace }

let opening: Promise<LocalStore> | null = null

export function openStore(): Promise<LocalStore> {
  opening ??= start()
  return opening
}

async function start(): Promise<LocalStore> {
  const thread = new Worker(new URL('./worker.ts', import.meta.url), {
    type: 'module',
  })
  // PGliteWorker has no way to report a failed init, and it can miss its own "you lead"
  // message (it listens only after an await). Our worker tells us both itself, and these
  // listeners exist before the worker can say anything.
  let leading: () => void = () => {}
  const leader = new Promise<void>((resolve) => (leading = resolve))
  const failed = new Promise<never>((_, reject) => {
    thread.addEventListener('message', (event: MessageEvent) => {
      const data = event.data as { type?: string; message?: string }
      if (data.type === STORE_LEADER) leading()
      if (data.type === STORE_FAILED)
        reject(new Error(`The local store failed to open: ${data.message}`))
    })
    thread.addEventListener('error', (event) =>
      reject(new Error(`The local store worker failed: ${event.message}`)),
    )
  })
  const pg = await Promise.race([
    PGliteWorker.create(thread, {
      extensions: { live, electric: electricSync() },
    }),
    failed,
  ])
  await Promise.race([pg.waitReady, failed])
  // Only the tab whose worker holds the database syncs; when it closes, the next one does.
  void leader.then(() =>
    startSync(pg as unknown as PGliteInterface, location.origin),
  )
  return pg as unknown as LocalStore
}

/** Makes the store hold this user's data; the syncing tab empties it if it held another's. */
export async function claimStore(userId: string): Promise<LocalStore> {
  const pg = await openStore()
  await pg.query(
    `insert into local_owner (user_id) values ($1)
     on conflict (singleton) do update set user_id = excluded.user_id
     where local_owner.user_id <> excluded.user_id`,
    [userId],
  )
  return pg
}

/** Signing out: nobody owns the store, so it is emptied. */
export async function releaseStore(): Promise<void> {
  const pg = await openStore()
  await pg.query('delete from local_owner')
}

/** Whose data the store holds; how the app knows who was signed in while offline. */
export async function localOwner(store: LocalStore): Promise<string | null> {
  const { rows } = await store.query<{ user_id: string }>(
    'select user_id from local_owner',
  )
  return rows[0]?.user_id ?? null
}
