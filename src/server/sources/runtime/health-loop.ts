// Measures each running source's slot (WAL status, retained and lag bytes) and stores the
// reading with its warning event and the WAL forecast: when a source becomes active, then every
// health interval. One measurement per source at a time: the one on activation may meet the
// interval's. The forecast's recent readings live with the running source, in memory: a
// server that takes a source over starts its window afresh.
import type { Db } from '../../platform/db/database.ts'
import {
  DEFAULT_HEALTH_LIMITS,
  healthWarning,
  measureSlot,
  type HealthLimits,
} from './health.ts'
import { writeHealth } from './rows.ts'
import type { Running } from './running-source.ts'
import { addReading, walForecastSeconds } from './wal-forecast.ts'

export class HealthLoop {
  private measuring: Promise<void> | null = null
  private stopped = false

  constructor(
    private readonly options: {
      db: Db
      instanceId: string
      healthLimits?: HealthLimits
    },
  ) {}

  /** Every running source, one after another; passes never overlap. */
  measureAll(entries: Iterable<Running>): Promise<void> {
    this.measuring ??= (async () => {
      for (const entry of [...entries])
        await this.measure(entry).catch(() => {})
    })().finally(() => (this.measuring = null))
    return this.measuring
  }

  /**
   * Measures the slot and stores the reading with its time, every time: the dashboard shows
   * when it was last measured, so even an unchanged reading is written. That is one row
   * update per active source per health interval (15 s), synced to its team's browsers.
   */
  measure(entry: Running): Promise<void> {
    entry.measuring ??= this.measureOnce(entry).finally(
      () => (entry.measuring = null),
    )
    return entry.measuring
  }

  async stop(): Promise<void> {
    this.stopped = true
    await this.measuring
  }

  private async measureOnce(entry: Running): Promise<void> {
    const database = entry.database
    if (this.stopped || database?.status !== 'active') return
    const reading = await measureSlot(database.pool, entry.context.slot)
    if (!reading) return
    const limits = this.options.healthLimits ?? DEFAULT_HEALTH_LIMITS
    const now = Date.now()
    const warning = healthWarning(entry.health, reading, limits)
    const { safeWalBytes, ...measured } = reading
    if (measured.retainedBytes !== null)
      entry.walReadings = addReading(entry.walReadings, {
        at: now,
        retainedBytes: measured.retainedBytes,
      })
    const health = {
      ...measured,
      forecastSeconds: walForecastSeconds(entry.walReadings, safeWalBytes),
    }
    await writeHealth(
      this.options.db,
      entry.id,
      health,
      warning,
      this.options.instanceId,
    )
    entry.health = { ...health, checkedAt: now }
  }
}
