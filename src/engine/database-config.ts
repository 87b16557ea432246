// What an attached database (database.ts) is configured with, and the session settings every
// connection to it uses (the engine's, the snapshot's, the explorer's).
import type { HostPinner } from './pg/pinned-socket.ts'
import { LOCK_WAIT_MS } from './replication/publication.ts'
import type { SpillLimit } from './replication/spill.ts'
import type {
  SupervisorEvents,
  SupervisorOptions,
} from './replication/supervisor.ts'

// Postgres renders values with these settings for snapshots and replication alike; where
// clauses read zone abbreviations (AT TIME ZONE 'EST') from the default set, as the evaluator
// does (src/engine/where/values/tz-abbreviations.ts). No statement waits on a lock longer than
// LOCK_WAIT_MS (a snapshot behind the app's ALTER TABLE would make the app's next statements
// queue behind it).
export const SESSION_OPTIONS =
  '-c DateStyle=ISO,DMY -c TimeZone=UTC -c bytea_output=hex -c IntervalStyle=iso_8601 -c extra_float_digits=1' +
  ' -c timezone_abbreviations=Default' +
  ` -c lock_timeout=${LOCK_WAIT_MS}`

/** When a shape's log passes both limits it is rotated: clients refetch a fresh snapshot. */
export type LogLimit = { minBytes: number; growthFactor: number }
export const DEFAULT_LOG_LIMIT: LogLimit = {
  minBytes: 64 * 1024 * 1024,
  growthFactor: 4,
}

export type DatabaseConfig = {
  id: string
  logLimit?: LogLimit
  connectionString: string
  /** Where this database's shape logs live. */
  dataDir: string
  events?: SupervisorEvents
  /**
   * Checks and pins the host's address on every connection, the pool's included: for a
   * database a user named. The operator's own database (control plane, CLI) has none.
   */
  pinHost?: HostPinner
  /**
   * Called when a shape is added (created or reopened), completes its snapshot, or ends
   * (rotated, failed). Synchronous, from inside the engine's work: it should only take note.
   */
  onShapesChanged?: () => void
  /** How long a silent connection to the database is trusted (stream.ts SILENCE_MS). */
  silenceMs?: number
  /** When a transaction goes to a spill file rather than memory (replication/spill.ts). */
  spillLimit?: SpillLimit
  /**
   * Releases the replication connection and the pool's idle ones after this long without a
   * request, a waiting client or a transaction, so the database may scale to zero; the next
   * request resumes streaming from the slot (replication/idle.ts). Unset or 0: never.
   */
  replicationIdleTimeoutMs?: number
  /**
   * At most this many shapes past each expiry pass: the least recently read are removed
   * (shapes/expiry.ts; Electric's ELECTRIC_MAX_SHAPES). No cap when absent.
   */
  maxShapes?: number
  /** How often the cap is applied (shapes/expiry.ts, Electric's 60 s by default). */
  expiryPeriodMs?: number
  /** See ConnectionSettings: the standalone engine's from Electric's variables. */
  connection?: ConnectionSettings
}

/** How an attached database is connected to, where it differs from the engine's defaults. */
export type ConnectionSettings = {
  /** The pool's (snapshots, catalog reads): a pooler's, say. Unset: connectionString. */
  poolConnectionString?: string
  /** The most connections the pool opens; POOL_SIZE by default. */
  poolSize?: number
  /** The slot's and publication's names (SupervisorOptions.names); by id by default. */
  names?: SupervisorOptions['names']
  /** See SupervisorOptions.manualPublishing. */
  manualPublishing?: boolean
}

/**
 * The server attaches many databases, each with its own pool: a few connections each are
 * enough for snapshots and catalog reads, and leave the user's database its connections.
 */
export const POOL_SIZE = 4
