// The tab's handle on the local store: PGlite in a shared worker-backed database, opened after
// first paint, and told whose data it holds (a different user empties it first).
import type { PGliteInterface } from '@electric-sql/pglite'
import { live, type LiveNamespace } from '@electric-sql/pglite/live'
import { electricSync } from '@electric-sql/pglite-sync'
import { PGliteWorker } from '@electric-sql/pglite/worker'
import { startSync } from './sync.ts'

export type LocalStore = PGliteWorker & { live: LiveNamespace }

let opening: Promise<LocalStore> | null = null

export function openStore(): Promise<LocalStore> {
  const thread = new Worker(new URL('./worker.ts', import.meta.url), {
    type: 'module',
  })
  thread.addEventListener('error', (e) =>
    console.warn('store worker', e.message, e.filename, e.lineno, e.colno),
  )
  opening ??= PGliteWorker.create(thread, {
    extensions: { live, electric: electricSync() },
  }).then((pg) => {
    // Only the leader tab syncs; when it closes, the next leader takes over.
    let syncing = false
    const lead = () => {
      if (!pg.isLeader || syncing) return
      syncing = true
      startSync(pg as unknown as PGliteInterface, location.origin)
    }
    lead()
    pg.onLeaderChange(lead)
    return pg as unknown as LocalStore
  })
  return opening
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

/** Asks the syncing tab to follow a source's event logs while a page shows them. */
export async function followSource(sourceId: string): Promise<void> {
  const pg = await openStore()
  await pg.query(
    'insert into followed_sources (source_id) values ($1) on conflict do nothing',
    [sourceId],
  )
}
