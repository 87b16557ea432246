// What one database's rotations cost its clients: the invalidation log (each rotation of a
// shape that had served its snapshot, why, how many of its clients came back to be sent on,
// and the catch-up reads its successor then served), the writes of rotated shapes (so the total never
// goes back), and the last snapshots' durations. All in memory and bounded: whoever runs the
// engine copies them out (the server into its control plane) by sequence number or time.
import type { Invalidation, RotationCause, Shape } from './shape.ts'

/** The newest rotations kept for a reader that has not copied them out yet. */
const KEPT_INVALIDATIONS = 1_000
/** The newest snapshot durations kept. */
const KEPT_SNAPSHOTS = 100
/**
 * Reads of a successor's log (anything but live reads) count as re-reads this long after the
 * rotation: clients that were reading come back within seconds (their next request gets the
 * 409), later readers are new clients. Long enough for a big snapshot to be read in full.
 */
const REREAD_WINDOW_MS = 5 * 60_000
/** Definitions whose successor has not come yet; past this the oldest are forgotten. */
const KEPT_WAITING = 10_000

export type SnapshotTime = { at: number; ms: number }

export class Invalidations {
  private seq = 0
  private readonly log: Invalidation[] = []
  private readonly snapshots: SnapshotTime[] = []
  /** The last rotation of each definition (by key) whose successor has not been made. */
  private readonly waiting = new Map<string, Invalidation>()
  /** Records written by shapes since rotated (ShapeDatabase.writesEmitted). */
  writesOfRotated = 0

  /** `shape` is being rotated: recorded if clients could have held its rows. */
  rotated(shape: Shape, cause: RotationCause, detail: string | null): void {
    this.writesOfRotated += shape.changesWritten
    // A snapshot never completed held nothing a client read: nothing to invalidate.
    if (!shape.ready) return
    const now = Date.now()
    const { table, where } = shape.definition
    const invalidation: Invalidation = {
      seq: ++this.seq,
      at: now,
      handle: shape.handle,
      table,
      where,
      cause,
      detail,
      clients: 0,
      bytesReread: 0,
      rereadUntil: now + REREAD_WINDOW_MS,
    }
    this.log.push(invalidation)
    if (this.log.length > KEPT_INVALIDATIONS) this.log.shift()
    this.waiting.delete(shape.key)
    this.waiting.set(shape.key, invalidation)
    if (this.waiting.size > KEPT_WAITING) {
      const oldest = this.waiting.keys().next().value
      if (oldest !== undefined) this.waiting.delete(oldest)
    }
  }

  /** A new shape of `key`: the rotation it succeeds, if recent (credited with its re-reads). */
  successorOf(key: string): Invalidation | null {
    const replaced = this.waiting.get(key)
    if (!replaced) return null
    this.waiting.delete(key)
    return replaced
  }

  snapshotted(ms: number): void {
    this.snapshots.push({ at: Date.now(), ms })
    if (this.snapshots.length > KEPT_SNAPSHOTS) this.snapshots.shift()
  }

  after(seq: number): readonly Invalidation[] {
    const first = this.log.findIndex((entry) => entry.seq > seq)
    return first < 0 ? [] : this.log.slice(first)
  }

  snapshotsAfter(at: number): readonly SnapshotTime[] {
    return this.snapshots.filter((entry) => entry.at > at)
  }
}
