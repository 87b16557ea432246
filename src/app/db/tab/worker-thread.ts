// The store's worker thread, startable before React and before PGlite's client code loads.
//
// The worker is started by bootStore (boot-store.ts), from index.html in a returning browser,
// and starts opening Postgres by itself (store-worker.ts); bootStore keeps what it says.
// PGliteWorker, attached later, would have missed its start-up handshake ("here", "ready",
// "leader-now"), so it gets a replaying port: every message the worker has sent is replayed to
// each listener PGliteWorker adds. Our worker also says itself when it fails
// (PGliteWorker cannot report a failed init).
import { BOOT_HINTS, bootStore, type BootedStore } from './boot-store.ts'
// The built worker's address (index.html's early start finds it in the build output).
import storeWorkerUrl from '../worker/store-worker.ts?worker&url'
import { rememberStore } from './hints.ts'
import { followStoreClosing } from './store-close.ts'
import {
  STORE_FAILED,
  STORE_MARKS,
  STORE_SESSION_REFUSED,
  STORE_SYNCED,
} from '../shared/worker-messages.ts'

export type WorkerThread = {
  /** What PGliteWorker is given instead of the Worker: the replaying port. */
  port: Worker
  /** Rejects when the worker failed to open the database. */
  failed: Promise<never>
  /** A message of our own to the worker (direct-requests.ts). */
  post: (message: unknown, transfer: Transferable[]) => void
}

type Listener = (event: MessageEvent) => void

let thread: WorkerThread | null = null

export function startWorkerThread(): WorkerThread {
  if (thread) return thread
  // Null only when the hint is required; here it is not.
  const booted = bootStore(storeWorkerUrl, null) as BootedStore
  const { worker, heard } = booted
  const failed = new Promise<never>((_, reject) => {
    const hear = (
      data: {
        type?: string
        message?: string
        userId?: string
        marks?: [string, number][]
      } | null,
    ) => {
      // The store is nobody's now: the next visit neither opens it early nor trusts it.
      if (data?.type === STORE_SESSION_REFUSED) rememberStore(false)
      if (data?.type === STORE_SYNCED && data.userId) syncedHere(data.userId)
      if (data?.type === STORE_MARKS)
        for (const [name, epochMs] of data.marks ?? [])
          performance.mark(`sluice:store:${name}`, {
            startTime: epochMs - performance.timeOrigin,
          })
      if (data?.type === STORE_FAILED)
        reject(new Error(`The local store failed to open: ${data.message}`))
    }
    // What was said before this module loaded, then what follows (no message can arrive
    // between the two: events are tasks, and this runs in one).
    for (const event of heard) hear(event.data as Parameters<typeof hear>[0])
    worker.addEventListener('message', (event: MessageEvent) =>
      hear(event.data as Parameters<typeof hear>[0]),
    )
    const broken = (message: string) =>
      reject(new Error(`The local store worker failed: ${message}`))
    if (booted.error != null) broken(booted.error)
    worker.addEventListener('error', (event) => broken(event.message))
  })
  // Nobody may be waiting yet; the store reports the failure when it is asked for.
  failed.catch(() => {})
  followStoreClosing(() => worker.terminate())
  thread = {
    port: replayingPort(worker, heard),
    failed,
    post: (message, transfer) => worker.postMessage(message, transfer),
  }
  return thread
}

// Users whose data this tab's worker has said is all in (STORE_SYNCED), and who waits for it.
const synced = new Set<string>()
const waitingForSync = new Map<string, (() => void)[]>()

function syncedHere(userId: string) {
  synced.add(userId)
  for (const resolve of waitingForSync.get(userId) ?? []) resolve()
  waitingForSync.delete(userId)
}

/**
 * Resolves once this tab's worker says `userId`'s data has all landed once; never, when
 * another tab's worker holds the store (first-sync.ts also checks for itself).
 */
export function storeSynced(userId: string): Promise<void> {
  if (synced.has(userId)) return Promise.resolve()
  return new Promise((resolve) =>
    waitingForSync.set(userId, [
      ...(waitingForSync.get(userId) ?? []),
      resolve,
    ]),
  )
}

/**
 * The worker as PGliteWorker sees it. A listener added late first gets what was already heard,
 * in order (a `once` listener only the first message), then live messages. Its "init" is
 * dropped: the worker gave itself one, and takes only one.
 */
function replayingPort(worker: Worker, heard: MessageEvent[]): Worker {
  const removed = new Set<Listener>()
  const port = {
    postMessage(message: { type?: string }) {
      if (message.type !== 'init') worker.postMessage(message)
    },
    addEventListener(
      type: string,
      listener: Listener,
      options?: AddEventListenerOptions,
    ) {
      if (type !== 'message')
        return worker.addEventListener(type, listener as EventListener)
      removed.delete(listener)
      const past = options?.once ? heard.slice(0, 1) : [...heard]
      if (!(options?.once && past.length > 0))
        worker.addEventListener('message', listener, options)
      for (const event of past) if (!removed.has(listener)) listener(event)
    },
    removeEventListener(type: string, listener: Listener) {
      if (type === 'message') removed.add(listener)
      worker.removeEventListener(type, listener as EventListener)
    },
    terminate: () => worker.terminate(),
  }
  return port as unknown as Worker
}

/**
 * At boot: a browser that holds a store or a session starts Postgres at once, in parallel with
 * the app's own start-up and the session check (index.html has usually done so already). A
 * signed-out visit never loads it. Answers whether it started.
 */
export function startStoreEarly(): boolean {
  if (!bootStore(storeWorkerUrl, BOOT_HINTS)) return false
  startWorkerThread()
  return true
}
