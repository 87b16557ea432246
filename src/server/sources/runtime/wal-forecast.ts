// How long until a source's slot would be invalidated at the current rate, pure: from the
// recent readings of retained WAL (kept per running source) and the room Postgres reports
// left before max_slot_wal_keep_size invalidates the slot (pg_replication_slots.safe_wal_size).
// The health loop keeps the readings and stores the answer as sources.wal_forecast_seconds.

/** One reading of the slot's retained WAL and when it was taken (ms since epoch). */
export type RetainedReading = { at: number; retainedBytes: number }

export type ForecastWindow = {
  /**
   * How far back readings count: 10 minutes. Long enough that the rate is not one burst and
   * spans many moves of the slot's restart point (Postgres logs the running transactions, from
   * which a logical slot can restart, every 15 s on a busy server, so a healthy slot's retained
   * WAL rises and falls in that rhythm); short enough that the rate follows the load of now,
   * not of the morning. At the 15 s health interval that is 40 readings per source.
   */
  windowMs: number
  /**
   * Growth over the window below which the slot is not falling behind: 16 MiB, one WAL segment
   * at Postgres's default size. A healthy slot's retained WAL wobbles by the WAL written between
   * two moves of its restart point, and Postgres frees WAL a segment at a time; less than a
   * segment more is noise, not a trend.
   */
  minGrowthBytes: number
}

export const DEFAULT_FORECAST_WINDOW: ForecastWindow = {
  windowMs: 10 * 60_000,
  minGrowthBytes: 16 * 1024 ** 2,
}

/** The readings with `reading` added and those older than the window dropped. */
export function addReading(
  readings: readonly RetainedReading[],
  reading: RetainedReading,
  window: ForecastWindow = DEFAULT_FORECAST_WINDOW,
): RetainedReading[] {
  const since = reading.at - window.windowMs
  return [
    ...readings.filter((r) => r.at >= since && r.at < reading.at),
    reading,
  ]
}

/**
 * Seconds until the slot would be invalidated if retained WAL keeps growing as it did over the
 * window (its first reading to its last), or null: no limit (`safeWalBytes` null, as Postgres
 * reports it without max_slot_wal_keep_size or for a slot already lost), or not falling
 * behind (fewer than two readings, or less growth than the window's minimum). Room already
 * used up (safe_wal_size at or below 0) is 0 seconds.
 */
export function walForecastSeconds(
  readings: readonly RetainedReading[],
  safeWalBytes: number | null,
  window: ForecastWindow = DEFAULT_FORECAST_WINDOW,
): number | null {
  if (safeWalBytes === null) return null
  const first = readings[0]
  const last = readings.at(-1)
  if (!first || !last || last.at <= first.at) return null
  const growth = last.retainedBytes - first.retainedBytes
  if (growth < window.minGrowthBytes) return null
  const bytesPerSecond = growth / ((last.at - first.at) / 1000)
  return Math.round(Math.max(0, safeWalBytes) / bytesPerSecond)
}
