// One source this server runs, as the runtime keeps it in memory.
import type { ShapeDatabase } from '../../../engine/index.ts'
import type { HealthRecord } from './health.ts'
import type { SourceContext, SourceSnapshot } from './lifecycle.ts'
import type { RetainedReading } from './wal-forecast.ts'

export type Running = {
  id: string
  region: string
  context: SourceContext
  password: string | null
  /** The state as last written; transitions are computed against it. */
  current: SourceSnapshot
  health: HealthRecord
  /** Retained WAL over the forecast's window (wal-forecast.ts), oldest first. */
  walReadings: RetainedReading[]
  /** The measurement under way: the one on activation may meet the interval's. */
  measuring: Promise<void> | null
  /** Null when the source could not be started (its password does not decrypt). */
  database: ShapeDatabase | null
  /** State writes, one after another, in the order the supervisor reported. */
  writes: Promise<void>
}
