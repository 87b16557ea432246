// Replication health of one source's slot: how much WAL the user's server keeps for us, how
// far our confirmed position trails its WAL, and Postgres's wal_status for the slot. The
// measurement reads the server; deciding whether it warns is pure. These are the sources
// table's wal_* columns and their warning event; the engine's supervisor reads the slot for its
// own needs (slotHealth in src/engine/replication/slot.ts).
import type { Queryable } from '../../engine/replication/sql.ts'

export type HealthReading = {
  walStatus: string | null
  retainedBytes: number | null
  lagBytes: number | null
}

export type HealthRecord = HealthReading & {
  /** When the stored reading was taken (ms since epoch); null when never. */
  checkedAt: number | null
}

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

/** Reads the slot's health; null when the slot does not exist. */
export async function measureSlot(
  client: Queryable,
  slot: string,
): Promise<HealthReading | null> {
  const { rows } = await client.query<{
    wal_status: string | null
    retained: string | null
    lag: string | null
  }>(
    // On a standby the current position is the last WAL received.
    `with here as (
       select case when pg_is_in_recovery() then pg_last_wal_receive_lsn()
                   else pg_current_wal_lsn() end as lsn)
     select s.wal_status::text,
            floor(pg_wal_lsn_diff(here.lsn, s.restart_lsn))::text as retained,
            floor(pg_wal_lsn_diff(here.lsn, s.confirmed_flush_lsn))::text as lag
       from pg_replication_slots s, here
      where s.slot_name = $1`,
    [slot],
  )
  const row = rows[0]
  if (!row) return null
  const bytes = (text: string | null) =>
    text === null ? null : Math.max(0, Number(text))
  return {
    walStatus: row.wal_status,
    retainedBytes: bytes(row.retained),
    lagBytes: bytes(row.lag),
  }
}

/**
 * The warning to log when a reading puts the slot in a risky state it was not in at the
 * stored reading: wal_status turning risky, or retained WAL crossing the limit. Null otherwise.
 * (Every reading is stored, warning or not: see the runtime's measure.)
 */
export function healthWarning(
  stored: HealthReading,
  reading: HealthReading,
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
