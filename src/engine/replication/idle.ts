// Releases a database's connections after a quiet spell (Electric's
// ELECTRIC_REPLICATION_IDLE_TIMEOUT), so a database that scales to zero (Neon) can: the slot
// stays and keeps every change, and the next request resumes streaming where it stopped.
//
// Quiet means no shape request, no client waiting on a change (a parked long-poll, an SSE
// stream, a request waiting on a snapshot) and no transaction received, for the whole timeout.
// Electric counts only the stream's transactions and wakes on the next request, so a waiting
// client's next poll reopens what was just closed; counting clients too spares that churn
// (docs/protocol.md).
import type pg from 'pg'
import type { SupervisorEvents, SupervisorStatus } from './supervisor.ts'

/** How long a request that woke replication waits for it: Electric's stack_ready_timeout. */
const WAKE_WAIT_MS = 5_000
/**
 * While clients wait, how often to look whether they left: a tenth of the timeout, at most
 * Electric's own check interval (30 s), so release comes at most that late.
 */
const recheckMs = (timeoutMs: number) =>
  Math.max(10, Math.min(timeoutMs / 10, 30_000))

/** What a released database stops and starts (ReplicationSupervisor). */
type Replication = {
  readonly status: SupervisorStatus
  pause(): Promise<void>
  resume(): void
}

type IdleOptions = {
  timeoutMs: number
  /** Clients waiting on a change now: while any waits, nothing is idle. */
  waiting(): number
  replication: Replication
  pool: pg.Pool
}

export class IdleRelease {
  private last = performance.now()
  private timer: NodeJS.Timeout | null = null
  private released = false
  private stopped = false
  // Requests held until replication streams again (or WAKE_WAIT_MS passes).
  private waking: Promise<void> | null = null
  private readonly wakers = new Set<() => void>()

  constructor(private readonly options: IdleOptions) {}

  start(): void {
    this.arm(this.options.timeoutMs)
  }

  stop(): void {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    for (const wake of [...this.wakers]) wake()
  }

  /**
   * A shape request. One arriving while released resumes replication; answers what to wait on
   * until it streams again (null: nothing), so the request is then served as usual.
   */
  request(): Promise<void> | null {
    this.last = performance.now()
    if (!this.released) return this.waking
    this.released = false
    this.options.replication.resume()
    this.arm(this.options.timeoutMs)
    // Asked before the stream had ended: it reconnects at once and stays active throughout.
    if (this.options.replication.status === 'active') return null
    this.waking = new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.wakers.delete(done)
        resolve()
      }
      const timer = setTimeout(done, WAKE_WAIT_MS)
      this.wakers.add(done)
    })
    return this.waking
  }

  /** A transaction received: the stream is busy, as Electric counts it. */
  activity(): void {
    this.last = performance.now()
  }

  /** Replication's status as it changes: streaming again ends any wait, and starts the clock. */
  statusChanged(status: SupervisorStatus): void {
    if (status === 'idle' || status === 'starting') return
    if (status === 'active') this.last = performance.now()
    this.waking = null
    for (const wake of [...this.wakers]) wake()
  }

  private arm(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => this.check(), delayMs)
    this.timer.unref()
  }

  private check(): void {
    this.timer = null
    if (this.released || this.stopped) return
    const { timeoutMs, waiting, replication } = this.options
    const now = performance.now()
    if (waiting() > 0) {
      this.last = now
      return this.arm(recheckMs(timeoutMs))
    }
    const quiet = now - this.last
    // Only a stream that runs is released: an error or a retry stays in view as it is.
    if (quiet < timeoutMs || replication.status !== 'active')
      return this.arm(Math.max(timeoutMs - quiet, recheckMs(timeoutMs)))
    this.released = true
    void this.release()
  }

  private async release(): Promise<void> {
    await this.options.replication.pause().catch(() => {})
    await closeIdleClients(this.options.pool)
  }
}

/**
 * Closes the pool's idle connections now rather than after its own idle timeout (10 s): a
 * client taken while others sit idle is one of them, and releasing it with an error closes it.
 * Connections in use (a snapshot still running) close at their idle timeout once done.
 */
async function closeIdleClients(pool: pg.Pool): Promise<void> {
  for (let left = pool.idleCount; left > 0 && pool.idleCount > 0; left--) {
    const client = await pool.connect().catch(() => null)
    client?.release(true)
  }
}

/** Events that also tell the idle release of status changes (its wakers wait on them). */
export function observedEvents(
  events: SupervisorEvents,
  idle: () => IdleRelease | null,
): SupervisorEvents {
  return {
    ...events,
    onStatus(status, reason, code) {
      idle()?.statusChanged(status)
      events.onStatus?.(status, reason, code)
    },
  }
}

/** The idle release for a database, or null when its timeout is unset or 0 (Electric's default). */
export function idleReleaseFor(
  timeoutMs: number | undefined,
  options: Omit<IdleOptions, 'timeoutMs'>,
): IdleRelease | null {
  return timeoutMs ? new IdleRelease({ timeoutMs, ...options }) : null
}
