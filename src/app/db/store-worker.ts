// The PGlite worker: one database per browser profile, shared by every tab. Only the elected
// leader tab's worker runs init. Every statement, the sync's included, arrives through the
// PGliteWorker protocol, so tab transactions and sync writes never interleave.
import { PGlite } from '@electric-sql/pglite'
import { worker } from '@electric-sql/pglite/worker'
import pgliteDataUrl from '@electric-sql/pglite/pglite.data?url'
import { migrateLocal } from './migrations.ts'
import { compilePostgres } from './postgres-wasm.ts'
import { StoreFs } from './store-fs.ts'
import { serveDirectRequests, type Held } from './direct-request-server.ts'
import { STORE_FAILED, STORE_LEADER } from './worker-messages.ts'

// IndexedDB database "/pglite/sluice".
export const LOCAL_DATABASE = 'sluice'

// On a fresh browser profile PGlite's IndexedDB filesystem leaves one rejected lookup of a
// missing file (Emscripten's shared ENOENT error, errno 44) unhandled; the database opens and
// works. Only that case is absorbed; any other failure still surfaces.
const ENOENT = 44
self.addEventListener('unhandledrejection', (event) => {
  const reason = event.reason as { errno?: unknown } | null
  if (reason?.errno === ENOENT) event.preventDefault()
})

const SEED_URL = '/local-store-seed.tar.gz'

// A browser's first visit loads the prebuilt empty database instead of running initdb in wasm.
async function fetchSeed(): Promise<Blob | undefined> {
  const response = await fetch(SEED_URL)
  return response.ok ? response.blob() : undefined
}

async function asBlob(response: Response): Promise<Blob> {
  if (!response.ok) throw new Error(`${response.url}: ${response.status}`)
  return response.blob()
}

// The database, once this worker has been elected to hold it.
let held: Held | null = null

void worker({
  // Only the elected worker runs init: its tab is the one that syncs.
  async init() {
    postMessage({ type: STORE_LEADER })
    try {
      const fs = new StoreFs(LOCAL_DATABASE)
      held = { database: open(fs), flush: () => fs.flush() }
      return await held.database
    } catch (error) {
      // The tab would otherwise wait for a database that never comes.
      postMessage({ type: STORE_FAILED, message: String(error) })
      throw error
    }
  },
})
// PGlite's worker waits for its tab's "init" before it runs the election and opens Postgres.
// The tab sends it only once PGlite's client code has loaded and its main thread is free, and
// the options it carries are empty here (PGliteWorker passes nothing else): the worker gives
// itself that message and starts at once. The tab's own "init" is dropped (worker-thread.ts).
self.dispatchEvent(
  new MessageEvent('message', { data: { type: 'init', options: {} } }),
)

// Reads and write-backs asked by this worker's own tab, one message each way.
serveDirectRequests(self, () => held)

async function open(fs: StoreFs): Promise<PGlite> {
  const options = {
    fs,
    // Statements do not wait for IndexedDB (waiting made every synced row a flush, and a first
    // visit several times slower). A tab closed within moments of a change can lose it; the
    // sync fetches it again on the next visit.
    relaxedDurability: true,
  }
  // PGlite would read its file-system image, then compile Postgres, then read the stored
  // database: all three begin here, at once. A browser without a stored database gets the seed.
  const [wasm, image, seed] = await Promise.all([
    compilePostgres(),
    fetch(pgliteDataUrl).then(asBlob),
    fs.preload().then((stored) => (stored ? undefined : fetchSeed())),
  ])
  const pg = await PGlite.create({
    ...options,
    pgliteWasmModule: wasm,
    fsBundle: image,
    loadDataDir: seed,
  })
  await migrateLocal(pg)
  return pg
}
