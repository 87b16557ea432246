// Starting the store's worker thread. One function for two callers: index.html runs it inline
// (src/app/pwa/early-store.ts puts it there), so a returning browser starts opening Postgres
// while the app's own scripts still load; worker-thread.ts runs it for everyone else.
//
// It is serialized into the page, so it uses nothing from outside its own body.

/** localStorage key: this browser holds a local store, so a visit may open it at boot. */
export const STORE_HINT = 'sluice.local-store'

/** The started worker, every message it has sent so far in order, and its load error. */
export type BootedStore = {
  worker: Worker
  heard: MessageEvent[]
  error: string | null
}

/**
 * Starts the worker once per page (later calls return the same one). With `onlyIfHint`, only
 * in a browser whose localStorage holds that key (a store was claimed here before).
 *
 * The worker starts opening Postgres by itself (store-worker.ts). What it says before PGlite's
 * client code has loaded is kept for that client (worker-thread.ts replays it).
 */
export function bootStore(
  workerUrl: string,
  onlyIfHint: string | null,
): BootedStore | null {
  const page = globalThis as unknown as { __sluiceStore?: BootedStore }
  if (page.__sluiceStore) return page.__sluiceStore
  if (onlyIfHint != null) {
    try {
      if (!localStorage.getItem(onlyIfHint)) return null
    } catch {
      // Storage refused (private mode): the store opens when a page asks for it.
      return null
    }
  }
  const booted: BootedStore = {
    worker: new Worker(workerUrl, { type: 'module' }),
    heard: [],
    error: null,
  }
  booted.worker.addEventListener('message', (event: MessageEvent) => {
    booted.heard.push(event)
  })
  booted.worker.addEventListener('error', (event: ErrorEvent) => {
    booted.error = event.message || 'the worker could not start'
  })
  page.__sluiceStore = booted
  return booted
}
