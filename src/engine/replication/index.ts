// The replication core's public surface: stream, slot and publication setup, LSN helpers.
export * from './types.ts'
export * from './lsn.ts'
export { startReplication, DEFAULT_STATUS_INTERVAL_MS } from './stream.ts'
export type { ReplicationStream, StartReplicationOptions } from './stream.ts'
export { DISPLAY_SETTINGS } from './connection.ts'
export * from './slot.ts'
