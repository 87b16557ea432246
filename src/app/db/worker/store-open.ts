// The store's database, opened by the worker once it is elected (store-worker.ts loads this
// module after its own start, so Postgres's code and image are on their way before PGlite's
// code arrives).
import { PGlite, type Transaction } from '@electric-sql/pglite'
import { live } from '@electric-sql/pglite/live'
import { worker } from '@electric-sql/pglite/worker'
import { electricSync } from '@electric-sql/pglite-sync'
import { keepListensLasting } from '../shared/lasting-listens.ts'
import { migrateLocal } from '../shared/migrations.ts'
import type { SeedFile } from './seed-files.ts'
import { LOCAL_DATABASE, type StoredFile } from './store-files.ts'
import { StoreFs } from './store-fs.ts'
import type { Held } from './direct-request-server.ts'
import { STORE_FAILED } from '../shared/worker-messages.ts'

/**
 * What opening the database waits for; the first two begun as early as the worker likes
 * (store-worker.ts), the stored files once it is elected.
 */
export type EarlyReads = {
  wasm: Promise<WebAssembly.Module>
  image: Promise<Blob>
  stored: Promise<StoredFile[] | null>
  /** The prebuilt empty database, for a browser that stores none yet. */
  seed: () => Promise<SeedFile[] | undefined>
}

export type Opening = {
  /**
   * This worker is elected: what it read ahead, and the stored files, read now; null when a
   * sign-out closed the store (store-close.ts), which this worker then never opens.
   */
  elected: () => EarlyReads | null
  mark: (name: string) => void
  /** The database is being opened here; `opened` once it is. */
  holding: (held: Held) => void
  opened: () => void
}

export function openWhenElected(opening: Opening): void {
  void worker({
    // Only the elected worker runs init: it holds the database and syncs.
    async init() {
      try {
        const reads = opening.elected()
        // Its tab is leaving: nothing is asked of this worker again.
        if (!reads) return new Promise<never>(() => {})
        const fs = new StoreFs(LOCAL_DATABASE, reads.stored, reads.seed)
        const database = open(fs, reads, opening.mark)
        opening.holding({
          database,
          flush: () => fs.flush(),
          release: () => fs.release(),
        })
        const pg = await database
        opening.opened()
        return pg
      } catch (error) {
        // The tab would otherwise wait for a database that never comes.
        postMessage({ type: STORE_FAILED, message: String(error) })
        throw error
      }
    },
  })
  // PGlite's worker waits for its tab's "init" before it runs the election and opens Postgres.
  // The tab sends it only once PGlite's client code has loaded and its main thread is free,
  // and the options it carries are empty here (PGliteWorker passes nothing else): the worker
  // gives itself that message and starts at once. The tab's own "init" is dropped
  // (worker-thread.ts).
  self.dispatchEvent(
    new MessageEvent('message', { data: { type: 'init', options: {} } }),
  )
}

async function open(
  fs: StoreFs,
  reads: EarlyReads,
  mark: (name: string) => void,
): Promise<PGlite> {
  // A browser without a stored database gets the seed (store-fs.ts).
  const [wasm, image] = await Promise.all([
    reads.wasm,
    reads.image,
    fs.preload(),
  ])
  const pg = await PGlite.create({
    fs,
    // Statements do not wait for IndexedDB (waiting made every synced row a flush, and a first
    // visit several times slower). A tab closed within moments of a change can lose it; the
    // sync fetches it again on the next visit.
    relaxedDurability: true,
    extensions: { live, electric: electricSync() },
    pgliteWasmModule: wasm,
    fsBundle: image,
  })
  mark('postgres-up')
  keepListensLasting<Transaction>(pg)
  await migrateLocal(pg)
  mark('migrated')
  return pg
}
