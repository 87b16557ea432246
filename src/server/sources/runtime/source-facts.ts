// What an operator's metrics read of each source this server holds, all from memory: the state
// last written, the replication health last measured (the runtime measures every 15 s, so a
// scrape sends no query to a user's database), and the engine's own counters.
import {
  type ShapeDatabase,
  engineCounters,
  type SourceFacts,
} from '../../../engine/index.ts'
import type { HealthRecord } from './health.ts'

export type { SourceFacts }

export function sourceFacts(entry: {
  id: string
  region: string
  current: { state: string }
  health: HealthRecord
  database: ShapeDatabase | null
}): SourceFacts {
  return {
    id: entry.id,
    region: entry.region,
    state: entry.current.state,
    lagBytes: entry.health.lagBytes,
    retainedBytes: entry.health.retainedBytes,
    ...engineCounters(entry.database),
  }
}
