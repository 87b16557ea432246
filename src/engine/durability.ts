// The durability loop of one database: what shape logs gained is made durable this often, and
// the slot is confirmed only up to what every log holds durably. Clients see changes before
// that; it bounds only what replication sends again after a crash. Most logs gain a little each
// flush and go into the journal together (storage/journal.ts: one fdatasync for all); a log that
// gained a lot (a snapshot, a spilled transaction) is written and fdatasynced on its own.
//
// While a shape snapshots, the transactions for it wait in memory: confirming them to Postgres
// before they are in its durable log could lose them in a crash. The shape holds the confirmed
// LSN where it was when the snapshot started, until the snapshot is in its log.
import type { Frame, Journal } from './storage/journal.ts'
import { eachLimited } from './limited.ts'
import type { Shape } from './shapes/shape.ts'

const FLUSH_EVERY_MS = 1_000
/** Logs synced on their own at once in a flush (the threadpool has four threads). */
const SYNCS_AT_ONCE = 8

export class DurabilityLoop {
  /** The end of the last transaction every shape has applied. */
  processedEnd = 0n
  private durableLsn = 0n
  private dirty = new Set<Shape>()
  // By shape (its snapshot), or by what else holds (a shape's move-in: its subqueries).
  private holds = new Map<object, bigint>()
  private timer: NodeJS.Timeout | null = null
  // One flush at a time: an overlapping later flush could finish first and confirm records an
  // earlier one is still syncing. A failed sync confirms nothing and is retried next time.
  private flushing: Promise<void> | null = null

  /** `isLive`: the shape is still its database's (a rotated one's failed sync is dropped). */
  constructor(
    private readonly journal: Journal,
    private readonly isLive: (shape: Shape) => boolean,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.flush(), FLUSH_EVERY_MS)
  }

  /** No more flushes on the clock; flush() still makes everything appended durable. */
  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }

  /** The shape's log has appends to make durable. */
  touched(shape: Shape): void {
    this.dirty.add(shape)
  }

  /**
   * A snapshot (or a move-in) starts: nothing past what is processed now (or past `upTo`) is
   * confirmed until release().
   */
  hold(key: object, upTo = this.processedEnd): void {
    this.holds.set(key, upTo)
  }

  release(key: object): void {
    this.holds.delete(key)
  }

  /** The shape is gone (rotated): nothing of it to sync or wait for. */
  forget(shape: Shape): void {
    this.dirty.delete(shape)
    this.holds.delete(shape)
    if (shape.mover) this.holds.delete(shape.mover)
  }

  /** What Postgres may forget: durable, or everything seen when nothing is pending. */
  confirmable(caughtUp: bigint): bigint {
    const idle = this.holds.size === 0 && this.processedEnd <= this.durableLsn
    return idle && caughtUp > this.durableLsn ? caughtUp : this.durableLsn
  }

  flush(): Promise<void> {
    this.flushing ??= this.flushOnce().finally(() => (this.flushing = null))
    return this.flushing
  }

  private async flushOnce(): Promise<void> {
    let target = this.processedEnd
    for (const hold of this.holds.values()) if (hold < target) target = hold
    const dirty = [...this.dirty]
    this.dirty.clear()
    const frames: Frame[] = []
    const journaling: Shape[] = []
    const alone: Shape[] = []
    for (const shape of dirty) {
      const take = shape.log.takeJournal()
      if (take === 'sync') alone.push(shape)
      else if (take) {
        frames.push({ log: shape.log, ...take })
        journaling.push(shape)
      }
    }
    const journaled = await this.journal.commit(frames).then(
      () => true,
      () => false,
    )
    // The journal could not take them (a full disk): each log on its own, as before the
    // journal. A write that fails there refuses further appends, so replication stops and
    // says why (fault F12) rather than piling appends up in memory.
    if (!journaled)
      frames.forEach((frame, i) => {
        const shape = journaling[i] as Shape
        shape.log.untakeJournal(frame.pos)
        alone.push(shape)
      })
    const failed: Shape[] = []
    await eachLimited(alone, SYNCS_AT_ONCE, (shape) =>
      shape.log.syncTaken().catch(() => void failed.push(shape)),
    )
    if (failed.length > 0) {
      for (const shape of failed) if (this.isLive(shape)) this.dirty.add(shape)
      return
    }
    if (target > this.durableLsn) this.durableLsn = target
  }
}
