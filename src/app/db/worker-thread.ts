// The store's worker thread, startable before React and before PGlite's client code loads.
//
// PGliteWorker speaks a start-up handshake over the worker's port: the worker says "here",
// the tab answers "init", the worker answers "ready" and, once elected, "leader-now". A
// PGliteWorker attached late would miss those messages, so the port is wrapped: the tab's
// "init" is sent as soon as the worker is here (Postgres starts opening at once), and every
// message the worker has sent is replayed to each listener PGliteWorker adds later. Our worker
// also says itself when it leads or fails (PGliteWorker cannot report a failed init).
import { STORE_FAILED, STORE_LEADER } from './worker-messages.ts'

export type WorkerThread = {
  /** What PGliteWorker is given instead of the Worker: the replaying port. */
  port: Worker
  /** Resolves when this tab's worker holds the database (this tab syncs). */
  leader: Promise<void>
  /** Rejects when the worker failed to open the database. */
  failed: Promise<never>
}

type Listener = (event: MessageEvent) => void

/** localStorage key: this browser holds a local store, so a visit may open it at boot. */
const STORE_HINT = 'sluice.local-store'

let thread: WorkerThread | null = null

export function startWorkerThread(): WorkerThread {
  if (thread) return thread
  const worker = new Worker(new URL('./worker.ts', import.meta.url), {
    type: 'module',
  })
  const heard: MessageEvent[] = []
  let leading: () => void = () => {}
  const leader = new Promise<void>((resolve) => (leading = resolve))
  const failed = new Promise<never>((_, reject) => {
    worker.addEventListener('message', (event: MessageEvent) => {
      heard.push(event)
      const data = event.data as { type?: string; message?: string }
      // PGliteWorker sends no options but its extensions (which stay in the tab).
      if (data.type === 'here')
        worker.postMessage({ type: 'init', options: {} })
      if (data.type === STORE_LEADER) leading()
      if (data.type === STORE_FAILED)
        reject(new Error(`The local store failed to open: ${data.message}`))
    })
    worker.addEventListener('error', (event) =>
      reject(new Error(`The local store worker failed: ${event.message}`)),
    )
  })
  // Nobody may be waiting yet; the store reports the failure when it is asked for.
  failed.catch(() => {})
  thread = { port: replayingPort(worker, heard), leader, failed }
  return thread
}

/**
 * The worker as PGliteWorker sees it. A listener added late first gets what was already heard,
 * in order (a `once` listener only the first message), then live messages. Its own "init" is
 * dropped: ours went first, and the worker takes only one.
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

/** A store exists in this browser (set when a user's data is claimed, cleared on sign-out). */
export function rememberStore(present: boolean): void {
  try {
    if (present) localStorage.setItem(STORE_HINT, '1')
    else localStorage.removeItem(STORE_HINT)
  } catch {
    // Storage refused (private mode): the store then opens when a dashboard page asks.
  }
}

/**
 * At boot: a browser that holds a store starts Postgres at once, in parallel with the app's
 * own start-up and the session check. A first visit waits for the dashboard (after paint).
 */
export function startStoreEarly(): void {
  try {
    if (localStorage.getItem(STORE_HINT)) startWorkerThread()
  } catch {
    // No storage: nothing to start early.
  }
}
