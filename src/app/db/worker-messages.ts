// Messages our store worker sends besides PGliteWorker's own protocol.
export const STORE_FAILED = 'sluice-store-failed'
export const STORE_LEADER = 'sluice-store-leader'

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
