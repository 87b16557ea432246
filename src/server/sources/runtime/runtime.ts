// What the HTTP side asks of the part that runs sources (attaching them to the engine, keeping
// their state and event logs, removing them). The API only writes rows and then asks here.
import type {
  ShapeDatabase,
  ShapeMessages,
  ShapeTimeline,
} from '../../../engine/index.ts'
import type { SourceExplorer } from '../explorer/pools.ts'

/** What deleting one of a source's shapes came to. */
export type ShapeDeletion =
  | { kind: 'deleted'; txid: number }
  | { kind: 'unknown_shape' }
  | { kind: 'not_running' }

/** What reading one of a source's shapes for the Shape Inspector came to. */
export type ShapeReading = ShapeMessages | { kind: 'not_running' }
export type TimelineReading = ShapeTimeline | { kind: 'not_running' }

export interface SourceRuntime {
  /** The instance id written into event logs by this server's engine. */
  readonly instanceId: string
  /** Look at the sources table now (after a create or a delete) rather than at the next poll. */
  kick(): void
  /**
   * Rotates every shape of a source this server runs: clients get 409 and refetch. Answers how
   * many shapes were rotated, or null when the source is not running here.
   */
  clearCache(sourceId: string): Promise<number | null>
  /**
   * Rotates one shape of a source this server runs (its clients get 409 and refetch) and
   * deletes its row from the live shapes; the txid of that delete.
   */
  deleteShape(sourceId: string, handle: string): Promise<ShapeDeletion>
  /**
   * A page of the messages a client reading one shape of a source this server runs from
   * `offset` receives (the engine's shapeMessages): read only, at most `limit` of them.
   */
  shapeMessages(
    sourceId: string,
    handle: string,
    offset: string,
    limit: number,
  ): ShapeReading
  /** The points of one shape's log a client can read from (the engine's shapeTimeline). */
  shapeTimeline(sourceId: string, handle: string): TimelineReading
  /** A deleted source whose removal failed: try removing its slot again now. */
  retryRemoval(sourceId: string): void
  /** Restarts the source's replication stream without clearing its shapes. */
  restart(sourceId: string): Promise<boolean>
  /** This server holds the source's claim (it may not be active yet). */
  holds(sourceId: string): boolean
  /**
   * Calls `listener` with the instance id of each hung server whose claims session this one
   * ends (its sources are about to be claimed here or by a region peer); the unsubscribe.
   */
  onHolderEnded(listener: (instanceId: string) => void): () => void
  /** The engine database serving an active source here; undefined otherwise. */
  database(sourceId: string): ShapeDatabase | undefined
  /**
   * The shape explorer's reads of an active source's database run here (its tables, row
   * counts), over a small pool this runtime closes when the source stops being active;
   * undefined otherwise.
   */
  explorer(sourceId: string): SourceExplorer | undefined
  stop(): Promise<void>
}
