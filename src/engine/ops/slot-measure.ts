// How far a slot trails its server, how much WAL the server keeps for it and how much more it
// may write before max_slot_wal_keep_size invalidates the slot: read by a server for each
// source's health (src/server/sources/runtime/health.ts) and by the standalone engine for its
// metrics. One read of pg_replication_slots, which takes no lock a user's statement waits on.
import type { Queryable } from '../pg/sql.ts'

export type HealthReading = {
  walStatus: string | null
  retainedBytes: number | null
  lagBytes: number | null
  /**
   * pg_replication_slots.safe_wal_size: bytes that can still be written before the slot is at
   * risk of being invalidated; negative once past it, null when max_slot_wal_keep_size sets no
   * limit or the slot is already lost.
   */
  safeWalBytes: number | null
}

/** Reads the slot's health; null when the slot does not exist. */
export async function measureSlot(
  client: Queryable,
  slot: string,
): Promise<HealthReading | null> {
  const { rows } = await client.query<{
    wal_status: string | null
    retained: string | null
    lag: string | null
    safe: string | null
  }>(
    // On a standby the current position is the last WAL received.
    `with here as (
       select case when pg_is_in_recovery() then pg_last_wal_receive_lsn()
                   else pg_current_wal_lsn() end as lsn)
     select s.wal_status::text,
            floor(pg_wal_lsn_diff(here.lsn, s.restart_lsn))::text as retained,
            floor(pg_wal_lsn_diff(here.lsn, s.confirmed_flush_lsn))::text as lag,
            s.safe_wal_size::text as safe
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
    safeWalBytes: row.safe === null ? null : Number(row.safe),
  }
}
