// The PGlite worker: one database per browser profile, shared by every tab. Only the elected
// leader tab's worker opens it (store-open.ts), and it also runs the sync (sync.ts): the
// shapes' rows are written here, next to the database, not through a tab. Tabs' statements
// arrive through the PGliteWorker protocol, which takes the same query and transaction locks
// as the sync's own statements, so a tab's transaction and a sync write never interleave.
//
// This module is small on purpose: it begins what opening the database waits for (compiling
// Postgres, fetching its file-system image) before PGlite's own code, a few hundred
// kilobytes, has loaded; then it loads that code.
import pgliteDataUrl from '@electric-sql/pglite/pglite.data?url'
import { serveDirectRequests, type Held } from './direct-request-server.ts'
import { compilePostgres } from './postgres-wasm.ts'
import { readSeed } from './seed-files.ts'
import { expectPrefetch, prefetched } from './shape-prefetch.ts'
import type { PrefetchedAnswer } from '../shared/prefetch.ts'
import { claimOwner } from '../shared/local-owner.ts'
import type { EarlyReads } from './store-open.ts'
import { closeOnRequest } from './store-close.ts'
import {
  LOCAL_DATABASE,
  readStoredFiles,
  storeExists,
  type StoredFile,
} from './store-files.ts'
import {
  FIRST_SYNC,
  PREFETCHED_SHAPE,
  START_SYNC,
  STORE_MARKS,
  STORE_SESSION_REFUSED,
  STORE_SYNCED,
} from '../shared/worker-messages.ts'
import { API_MOUNTS } from '../../../shared/api-routes.ts'

// Steps of opening the store on the wall clock, so the tab can place them on its own timeline
// (performance marks `sluice:store:*`, read by bench:web's profile).
const marks: [name: string, epochMs: number][] = []
const mark = (name: string) =>
  marks.push([name, performance.timeOrigin + performance.now()])
const sendMarks = () =>
  postMessage({ type: STORE_MARKS, marks: marks.splice(0) })
mark('worker-start')
// The sync's shape requests (made here, so absent from the tab's own resource timing): each
// snapshot (offset=-1) and catch-up, named like `shape:/v1/teams+:end`.
new PerformanceObserver((list) => {
  const shapes: [string, number][] = []
  for (const entry of list.getEntries() as PerformanceResourceTiming[]) {
    const url = new URL(entry.name)
    if (!url.pathname.startsWith(`${API_MOUNTS.gateway}/`)) continue
    if (url.searchParams.get('live') === 'true') continue
    const name = `shape:${url.pathname}${url.searchParams.get('offset') === '-1' ? '' : '+'}`
    const at = (ms: number) => performance.timeOrigin + ms
    shapes.push([`${name}:start`, at(entry.startTime)])
    shapes.push([`${name}:end`, at(entry.responseEnd)])
  }
  if (shapes.length) postMessage({ type: STORE_MARKS, marks: shapes })
}).observe({ type: 'resource' })

// On a fresh browser profile PGlite's IndexedDB filesystem leaves one rejected lookup of a
// missing file (Emscripten's shared ENOENT error, errno 44) unhandled; the database opens and
// works. Only that case is absorbed; any other failure still surfaces.
const ENOENT = 44
self.addEventListener('unhandledrejection', (event) => {
  const reason = event.reason as { errno?: unknown } | null
  if (reason?.errno === ENOENT) event.preventDefault()
})

// The database, once this worker has been elected to hold it.
let held: Held | null = null

// Reads and write-backs asked by this worker's own tab, one message each way. Listening from
// the start: a message that arrives before a listener is lost.
serveDirectRequests(self, () => held)

// A sign-out (store-close.ts): the sync stops, then the database lets go of its files.
let stopSync: (() => Promise<void>) | null = null
const closing = closeOnRequest(async () => {
  if (!held) return false
  // Opened first: a store still opening would open its files after they were let go.
  await held.database.catch(() => null)
  await stopSync?.()
  await held.release()
  return true
})

// The sync starts once this worker holds the database and its tab has asked: after its first
// screen shows what the store held (START_SYNC; the sync's start would delay that screen), or
// at once on a first visit (FIRST_SYNC), when there is nothing to show until the sync has run.
let syncWanted = false
let opened = false
let syncing = false
self.addEventListener(
  'message',
  (
    event: MessageEvent<{
      type?: string
      userId?: string
      url?: string
      answer?: PrefetchedAnswer
    }>,
  ) => {
    const { type, userId, url, answer } = event.data ?? {}
    if (type === PREFETCHED_SHAPE && url) return prefetched(url, answer ?? null)
    if (type === FIRST_SYNC && userId) {
      expectPrefetch(userId)
      firstOwner = userId
      // The sync's code, too, is wanted as soon as Postgres is up.
      void syncCode()
    } else if (type === START_SYNC) screenShown()
    else return
    syncWanted = true
    void startSyncIfWanted()
  },
)
// A first visit's user (FIRST_SYNC): the store is made theirs before the sync starts.
let firstOwner: string | null = null
// START_SYNC came: the tab's first screen is up.
let screenShown: () => void = () => {}
const firstScreen = new Promise<void>((resolve) => (screenShown = resolve))

let syncModule: ReturnType<typeof loadSync> | null = null
const loadSync = () => import('./sync.ts')
const syncCode = () => (syncModule ??= loadSync())

async function startSyncIfWanted() {
  if (!held || !opened || !syncWanted || syncing) return
  syncing = true
  const [pg, { startSync }] = await Promise.all([held.database, syncCode()])
  if (firstOwner) await claimOwner(pg, firstOwner)
  // Checked next to the start: a sign-out closing the store meanwhile stops what it finds.
  if (closing.requested()) return
  mark('sync-start')
  sendMarks()
  stopSync = startSync(
    pg as unknown as Parameters<typeof startSync>[0],
    self.location.origin,
    () => postMessage({ type: STORE_SESSION_REFUSED }),
    firstScreen,
    (userId) => postMessage({ type: STORE_SYNCED, userId }),
  )
}

function storedFiles(): Promise<StoredFile[] | null> {
  const stored = readStoredFiles(LOCAL_DATABASE)
  // Only a mark: opening the store reports a failed read.
  stored.then(
    () => mark('stored-files'),
    () => {},
  )
  return stored
}

const SEED_URL = '/local-store-seed.tar.gz'

/**
 * What never changes between visits: Postgres's code and its file-system image; and, in a
 * browser with no store yet, the seed.
 */
function readAhead(): Pick<EarlyReads, 'wasm' | 'image'> {
  // A failure here is met again, and reported, when opening asks for the seed.
  storeExists(LOCAL_DATABASE)
    .then((exists) => (exists ? undefined : seed()))
    .catch(() => {})
  return {
    wasm: compilePostgres().finally(() => mark('compiled')),
    image: fetch(pgliteDataUrl)
      .then(asBlob)
      .finally(() => mark('image')),
  }
}

// A browser's first visit starts from it (seed-files.ts); asked for once.
let seedRead: ReturnType<typeof readSeed> | null = null
const seed = () =>
  (seedRead ??= readSeed(SEED_URL).catch((error: unknown) => {
    seedRead = null
    throw error
  }))

async function asBlob(response: Response): Promise<Blob> {
  if (!response.ok) throw new Error(`${response.url}: ${response.status}`)
  return response.blob()
}

// A second tab's worker waits, maybe for good, while another holds the database: only the
// worker that will hold it reads ahead (the others read once they are elected).
async function anotherHolds(): Promise<boolean> {
  const { held: locks = [] } = await navigator.locks.query()
  return locks.some((lock) => lock.name?.startsWith('pglite-election-lock:'))
}

const early = anotherHolds().then((busy) => (busy ? null : readAhead()))
const { openWhenElected } = await import('./store-open.ts')
const readEarly = await early
openWhenElected({
  // The stored files are read only now: read any earlier, they could miss what another
  // worker, elected meanwhile, wrote (a sign-out's emptied store, say).
  elected: () => {
    if (!closing.requested())
      return { ...(readEarly ?? readAhead()), stored: storedFiles(), seed }
    closing.elected()
    return null
  },
  mark,
  holding: (database) => (held = database),
  opened: () => {
    opened = true
    sendMarks()
    void startSyncIfWanted()
  },
})
