// Starting the store's worker thread. One function for two callers: index.html runs it inline
// (scripts/build/early-store.ts puts it there), so a returning browser starts opening Postgres
// while the app's own scripts still load; worker-thread.ts runs it for everyone else.
//
// bootStore is serialized into the page, so its body uses nothing from outside itself.
import { SESSION_HINT_COOKIE } from '../../lib/session-hint.ts'

/** localStorage key: this browser holds a local store, so a visit may open it at boot. */
export const STORE_HINT = 'sluice.local-store'

/**
 * What makes a visit open the store at boot: a store kept here (localStorage key), or a
 * session (the page-readable cookie the server sets with it): a signed-in visit opens the
 * store anyway, and a first one gains most from starting early.
 */
export type BootHints = { storage: string; cookie: string }

export const BOOT_HINTS: BootHints = {
  storage: STORE_HINT,
  cookie: SESSION_HINT_COOKIE,
}

/** The started worker, every message it has sent so far in order, and its load error. */
export type BootedStore = {
  worker: Worker
  heard: MessageEvent[]
  error: string | null
}

/**
 * Starts the worker once per page (later calls return the same one). With `onlyIf`, only in a
 * browser that holds a store or a session (BootHints).
 *
 * The worker starts opening Postgres by itself (store-worker.ts). What it says before PGlite's
 * client code has loaded is kept for that client (worker-thread.ts replays it).
 */
export function bootStore(
  workerUrl: string,
  onlyIf: BootHints | null,
): BootedStore | null {
  const page = globalThis as unknown as { __sluiceStore?: BootedStore }
  if (page.__sluiceStore) return page.__sluiceStore
  if (onlyIf != null) {
    const hinted = (read: () => boolean) => {
      try {
        return read()
      } catch {
        // Storage refused (private mode): the store opens when a page asks for it.
        return false
      }
    }
    const stored = hinted(() => localStorage.getItem(onlyIf.storage) != null)
    const session = hinted(() =>
      document.cookie
        .split(';')
        .some((c) => c.trim().startsWith(`${onlyIf.cookie}=`)),
    )
    if (!stored && !session) return null
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
