// What the metrics read of one database (a server's source, or the standalone engine's one
// database), all from memory: its state, the replication health last measured (so a scrape
// sends no query to the database) and the engine's own counters.
import type { ShapeDatabase } from '../database.ts'

export type SourceFacts = {
  id: string
  /** The source's region (a server's sources); the standalone engine has none. */
  region?: string
  state: string
  /** Bytes the slot's confirmed position trails the server's WAL; null until measured. */
  lagBytes: number | null
  /** WAL the server keeps for the slot; null until measured. */
  retainedBytes: number | null
  /** Row changes replicated since the database was attached here (a counter). */
  changes: number
  shapes: number
  /** Requests waiting for a change on any of its shapes. */
  liveClients: number
  /** Bytes of its shape logs. */
  logBytes: number
}

/** The engine's counters of one database (zeros before it is attached). */
export function engineCounters(
  database: ShapeDatabase | null,
): Pick<SourceFacts, 'changes' | 'shapes' | 'liveClients' | 'logBytes'> {
  const shapes = database?.shapeFacts() ?? []
  return {
    changes: database?.changesReceived ?? 0,
    shapes: shapes.length,
    liveClients: database?.waitingRequests() ?? 0,
    logBytes: shapes.reduce((sum, shape) => sum + shape.logBytes, 0),
  }
}
