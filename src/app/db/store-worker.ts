// The PGlite worker: one database per browser profile, shared by every tab. Only the elected
// leader tab's worker runs init, and it also runs the sync (sync.ts): the shapes' rows are
// written here, next to the database, not through a tab. Tabs' statements arrive through the
// PGliteWorker protocol, which takes the same query and transaction locks as the sync's own
// statements, so a tab's transaction and a sync write never interleave.
import { PGlite } from '@electric-sql/pglite'
import { live } from '@electric-sql/pglite/live'
import { worker } from '@electric-sql/pglite/worker'
import { electricSync } from '@electric-sql/pglite-sync'
import pgliteDataUrl from '@electric-sql/pglite/pglite.data?url'
import { migrateLocal } from './migrations.ts'
import { compilePostgres } from './postgres-wasm.ts'
import { StoreFs } from './store-fs.ts'
import { serveDirectRequests, type Held } from './direct-request-server.ts'
import { startSync, type SyncedPg } from './sync.ts'
import {
  START_SYNC,
  STORE_FAILED,
  STORE_MARKS,
  STORE_SESSION_REFUSED,
} from './worker-messages.ts'

// Steps of opening the store on the wall clock, so the tab can place them on its own timeline
// (performance marks `sluice:store:*`, read by bench:web's profile).
const marks: [name: string, epochMs: number][] = []
const mark = (name: string) =>
  marks.push([name, performance.timeOrigin + performance.now()])
mark('worker-start')
// The sync's shape requests (made here, so absent from the tab's own resource timing): each
// snapshot (offset=-1) and catch-up, named like `shape:/v1/teams+:end`.
new PerformanceObserver((list) => {
  const shapes: [string, number][] = []
  for (const entry of list.getEntries() as PerformanceResourceTiming[]) {
    const url = new URL(entry.name)
    if (!url.pathname.startsWith('/v1/')) continue
    if (url.searchParams.get('live') === 'true') continue
    const name = `shape:${url.pathname}${url.searchParams.get('offset') === '-1' ? '' : '+'}`
    const at = (ms: number) => performance.timeOrigin + ms
    shapes.push([`${name}:start`, at(entry.startTime)])
    shapes.push([`${name}:end`, at(entry.responseEnd)])
  }
  if (shapes.length) postMessage({ type: STORE_MARKS, marks: shapes })
}).observe({ type: 'resource' })

// IndexedDB database "/pglite/sluice".
const LOCAL_DATABASE = 'sluice'

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
    try {
      const fs = new StoreFs(LOCAL_DATABASE)
      held = { database: open(fs), flush: () => fs.flush() }
      const database = await held.database
      startSyncIfWanted()
      return database
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

// The sync starts once this worker holds the database and its tab has asked (the tab asks
// after its first screen shows what the store held, which the sync's start would delay).
let syncWanted = false
let syncing = false
self.addEventListener('message', (event: MessageEvent<{ type?: string }>) => {
  if (event.data?.type !== START_SYNC) return
  syncWanted = true
  startSyncIfWanted()
})

function startSyncIfWanted() {
  if (!held || !syncWanted || syncing) return
  syncing = true
  void held.database.then((pg) => {
    mark('sync-start')
    postMessage({ type: STORE_MARKS, marks: marks.splice(0) })
    startSync(pg as unknown as SyncedPg, self.location.origin, () =>
      postMessage({ type: STORE_SESSION_REFUSED }),
    )
  })
}

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
    compilePostgres().finally(() => mark('compiled')),
    fetch(pgliteDataUrl)
      .then(asBlob)
      .finally(() => mark('image')),
    fs
      .preload()
      .then((stored) => (stored ? undefined : fetchSeed()))
      .finally(() => mark('stored-files')),
  ])
  const pg = await PGlite.create({
    ...options,
    extensions: { live, electric: electricSync() },
    pgliteWasmModule: wasm,
    fsBundle: image,
    loadDataDir: seed,
  })
  mark('postgres-up')
  await migrateLocal(pg)
  mark('migrated')
  postMessage({ type: STORE_MARKS, marks: marks.splice(0) })
  return pg
}
