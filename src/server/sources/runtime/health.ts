// Replication health of one source's slot: how much WAL the user's server keeps for us, how
// far our confirmed position trails its WAL, Postgres's wal_status for the slot, and the time
// left before max_slot_wal_keep_size would invalidate it (wal-forecast.ts). The measurement
// reads the server; deciding whether it warns is pure. These are the sources table's wal_*
// columns and their warning event; the engine's supervisor reads the slot for its own needs
// (slotHealth in src/engine/replication/slot.ts).
import type { HealthReading } from '../../../engine/index.ts'

export { measureSlot, type HealthReading } from '../../../engine/index.ts'

/** A reading as the sources row keeps it: the forecast in place of the room it came from. */
export type StoredHealth = Omit<HealthReading, 'safeWalBytes'> & {
  /** wal_forecast_seconds: null when the slot is not falling behind or has no limit. */
  forecastSeconds: number | null
}

export type HealthRecord = StoredHealth & {
  /** When the stored reading was taken (ms since epoch); null when never. */
  checkedAt: number | null
}

/** What deciding a warning looks at: a reading, with or without the room left. */
type WarningReading = Omit<HealthReading, 'safeWalBytes'>

export type HealthLimits = {
  /**
   * Retained WAL above which a replication_health_warning is logged: 1 GiB by default, far
   * above what a streaming slot that confirms every second keeps, and well before it fills a
   * typical small disk (max_slot_wal_keep_size is unlimited by default).
   */
  retainedWarningBytes: number
}

export const DEFAULT_HEALTH_LIMITS: HealthLimits = {
  retainedWarningBytes: 1024 ** 3,
}

/** wal_status values that mean the slot is at risk of, or past, losing WAL it needs. */
const WARNING_STATUSES = new Set(['extended', 'unreserved', 'lost'])

/**
 * The warning to log when a reading puts the slot in a risky state it was not in at the
 * stored reading: wal_status turning risky, or retained WAL crossing the limit. Null otherwise.
 * (Every reading is stored, warning or not: see the runtime's measure.)
 */
export function healthWarning(
  stored: WarningReading,
  reading: WarningReading,
  limits: HealthLimits = DEFAULT_HEALTH_LIMITS,
): Record<string, unknown> | null {
  const enteredRiskyStatus =
    reading.walStatus !== null &&
    WARNING_STATUSES.has(reading.walStatus) &&
    reading.walStatus !== stored.walStatus
  const crossedThreshold =
    reading.retainedBytes !== null &&
    reading.retainedBytes >= limits.retainedWarningBytes &&
    (stored.retainedBytes === null ||
      stored.retainedBytes < limits.retainedWarningBytes)
  return enteredRiskyStatus || crossedThreshold
    ? {
        wal_status: reading.walStatus,
        wal_retained_bytes: reading.retainedBytes,
      }
    : null
}
