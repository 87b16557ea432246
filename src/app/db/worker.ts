// The PGlite worker: one database per browser profile, shared by every tab. Only the elected
// leader tab's worker runs init. Every statement, the sync's included, arrives through the
// PGliteWorker protocol, so tab transactions and sync writes never interleave.
import { PGlite } from '@electric-sql/pglite'
import { worker } from '@electric-sql/pglite/worker'
import { migrateLocal } from './migrations.ts'
import { STORE_FAILED, STORE_LEADER } from './worker-messages.ts'

export const LOCAL_DATABASE = 'idb://sluice'

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
async function seedIfNew(): Promise<Blob | undefined> {
  const existing = await indexedDB.databases()
  if (
    existing.some((db) =>
      db.name?.endsWith(LOCAL_DATABASE.slice('idb://'.length)),
    )
  )
    return undefined
  const response = await fetch(SEED_URL)
  return response.ok ? response.blob() : undefined
}

void worker({
  // Only the elected worker runs init: its tab is the one that syncs.
  async init() {
    postMessage({ type: STORE_LEADER })
    try {
      return await open()
    } catch (error) {
      // The tab would otherwise wait for a database that never comes.
      postMessage({ type: STORE_FAILED, message: String(error) })
      throw error
    }
  },
})

async function open(): Promise<PGlite> {
  const options = {
    dataDir: LOCAL_DATABASE,
    // Statements do not wait for IndexedDB (waiting made every synced row a flush, and a first
    // visit several times slower). A tab closed within moments of a change can lose it; the
    // sync fetches it again on the next visit.
    relaxedDurability: true,
  }
  const pg = await PGlite.create({
    ...options,
    loadDataDir: await seedIfNew(),
  })
  await migrateLocal(pg)
  coalesceWriteBacks(pg)
  return pg
}

// PGlite writes its files back to IndexedDB after every statement, reads included, and each
// write-back compares every file in memory with every entry stored. Statements arriving
// within WRITE_BACK_DELAY_MS share one write-back; what a closed tab can lose grows from
// "the statements of the last moment" to that long, and the sync fetches it again.
const WRITE_BACK_DELAY_MS = 200

function coalesceWriteBacks(pg: PGlite) {
  const fs = pg.fs
  if (!fs) return
  const writeBack = fs.syncToFs.bind(fs)
  let next: Promise<void> | null = null
  fs.syncToFs = (relaxedDurability?: boolean) => {
    next ??= new Promise((resolve) =>
      setTimeout(resolve, WRITE_BACK_DELAY_MS),
    ).then(() => {
      next = null
      return writeBack(relaxedDurability)
    })
    return next
  }
}
