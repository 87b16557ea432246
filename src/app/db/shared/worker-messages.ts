// Messages our store worker sends besides PGliteWorker's own protocol.
export const STORE_FAILED = 'sluice-store-failed'
/** When the worker reached each step of opening the store (wall-clock ms), for profiling. */
export const STORE_MARKS = 'sluice-store-marks'

/**
 * Tab to worker: the page has shown what the store held, so the sync may start (in the worker
 * that holds the database: now if it does, or once it is elected).
 */
export const START_SYNC = 'sluice-start-sync'
/**
 * Tab to worker: `userId` is signed in and this browser has not synced their data yet. The
 * tab is asking for their shapes' snapshots (PREFETCHED_SHAPE follows for each), and the
 * worker, once it holds the opened database, makes it theirs and starts the sync.
 */
export const FIRST_SYNC = 'sluice-first-sync'
/** Tab to worker: one of those snapshots, `{ url, answer }` (shared/prefetch.ts). */
export const PREFETCHED_SHAPE = 'sluice-prefetched-shape'
/** Worker to tab: `{ userId }`'s data has all landed in the store once (synced-once.ts). */
export const STORE_SYNCED = 'sluice-store-synced'
/** Worker to tab: the server refused the session of the data the store held (sync.ts). */
export const STORE_SESSION_REFUSED = 'sluice-session-refused'

/** Tab to worker: the port on which this tab sends direct requests (direct-requests.ts). */
export const DIRECT_REQUESTS = 'sluice-direct-requests'

export type DirectRequest =
  | { id: number; kind: 'read'; sql: string; params: unknown[] }
  | { id: number; kind: 'flush' }
export type DirectAnswer =
  | { id: number; rows: Record<string, unknown>[] }
  | { id: number; done: true }
  | { id: number; error: string }

/** The answer of a worker that does not hold the database (another tab's worker does). */
export const NOT_HELD_HERE = 'The database is held by another tab'

/**
 * The channel on which a sign-out closes the store, between every tab and every store worker
 * of this browser (worker/store-close.ts, tab/store-close.ts): a tab's own worker may not be
 * the one holding the database.
 */
export const STORE_CHANNEL = 'sluice.store'
/**
 * Tab to every worker: signing out. The worker holding the database stops the sync, lets go
 * of its files and deletes its IndexedDB database; the others never open it.
 */
export const CLOSE_STORE = 'sluice-close-store'
/** Worker to every tab: the store's database is deleted. */
export const STORE_CLOSED = 'sluice-store-closed'
