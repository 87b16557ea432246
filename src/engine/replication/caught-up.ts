// Where replication stands for those who must wait until it has delivered a position: every
// transaction committed below `lsn` has been applied (the stream's caughtUp, handed over as it
// grows). A move-in waits on it (shapes/subqueries/mover.ts), asking the server for its
// position meanwhile: an idle stream would otherwise say it only every half minute.
import { UnavailableError } from '../unavailable.ts'

/** How long a wait lasts before it gives up. */
const TIMEOUT_MS = 30_000
/** How often, meanwhile, the server is asked where it stands. */
const ASK_EVERY_MS = 50

export class CaughtUp {
  lsn = 0n
  private waiters = new Set<() => void>()

  advance(lsn: bigint): void {
    this.lsn = lsn
    for (const wake of [...this.waiters]) wake()
  }

  /**
   * Resolves once `lsn` is reached; `ask` prompts the server for its position, `stopping` ends
   * the wait (the engine stopping).
   */
  async reach(
    lsn: bigint,
    ask: () => void,
    stopping: () => boolean,
  ): Promise<void> {
    const deadline = performance.now() + TIMEOUT_MS
    while (this.lsn < lsn) {
      if (stopping() || performance.now() > deadline)
        throw new UnavailableError('replication did not catch up')
      ask()
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer)
          this.waiters.delete(done)
          resolve()
        }
        const timer = setTimeout(done, ASK_EVERY_MS)
        this.waiters.add(done)
      })
    }
  }
}
