// What an operator's metrics read of each source this server holds, all from memory: the state
// last written, the replication health last measured (the runtime measures every 15 s, so a
// scrape sends no query to a user's database), and the engine's own counters.
import type { ShapeDatabase } from '../../engine/database.ts'
import type { HealthRecord } from './health.ts'

export type SourceFacts = {
  id: string
  region: string
  state: string
  /** Bytes the slot's confirmed position trails the server's WAL; null until measured. */
  lagBytes: number | null
  /** WAL the server keeps for the slot; null until measured. */
  retainedBytes: number | null
  /** Row changes replicated since the source was attached here (a counter). */
  changes: number
  shapes: number
  /** Requests waiting for a change on any of its shapes. */
  liveClients: number
  /** Bytes of its shape logs. */
  logBytes: number
}

export function sourceFacts(entry: {
  id: string
  region: string
  current: { state: string }
  health: HealthRecord
  database: ShapeDatabase | null
}): SourceFacts {
  const shapes = entry.database?.shapeFacts() ?? []
  return {
    id: entry.id,
    region: entry.region,
    state: entry.current.state,
    lagBytes: entry.health.lagBytes,
    retainedBytes: entry.health.retainedBytes,
    changes: entry.database?.changesReceived ?? 0,
    shapes: shapes.length,
    liveClients: entry.database?.waitingRequests() ?? 0,
    logBytes: shapes.reduce((sum, shape) => sum + shape.logBytes, 0),
  }
}
