// Cooperative time slicing for replication work: a long transaction, or costly where clauses,
// must not hold the event loop, so the work yields to it (setImmediate) every few milliseconds.
// Reading the clock for every row of every shape would show on the hot path: the clock is read
// only every CHECK_EVERY units of work, or sooner when evaluations charged their work budget
// (a costly row can take tens of milliseconds on its own).
import { unitsSpent } from './where/budget.ts'

/** Work between yields: short enough for other requests, long enough to amortise the yield. */
const SLICE_MS = 10
/** Cheap units of work (a row routed or evaluated for one shape) between clock reads. */
const CHECK_EVERY = 64
/** Budget units (about a nanosecond each) charged since the last clock read that force one. */
const CHECK_AFTER_UNITS = 1_000_000

export class TimeSlice {
  private started = performance.now()
  private ticks = 0
  private unitsAtCheck = unitsSpent()

  constructor(private readonly sliceMs = SLICE_MS) {}

  /** Counts `units` of work done; true when the slice is spent and the caller should pause(). */
  tick(units = 1): boolean {
    this.ticks += units
    if (
      this.ticks < CHECK_EVERY &&
      unitsSpent() - this.unitsAtCheck < CHECK_AFTER_UNITS
    )
      return false
    this.ticks = 0
    this.unitsAtCheck = unitsSpent()
    return performance.now() - this.started >= this.sliceMs
  }

  /** Lets timers, I/O and other requests run, then starts a new slice. */
  async pause(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve))
    this.started = performance.now()
    this.ticks = 0
    this.unitsAtCheck = unitsSpent()
  }
}
