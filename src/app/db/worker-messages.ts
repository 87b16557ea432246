// Messages our store worker sends besides PGliteWorker's own protocol.
export const STORE_FAILED = 'sluice-store-failed'
export const STORE_LEADER = 'sluice-store-leader'
