// Readiness (GET /api/public/ready): this server can do its work when the control plane answers
// a query within a bound and has every migration this build ships. Liveness is
// /api/public/health, which asks nothing of anyone.
import type { Context } from 'hono'
import type { Db } from '../db/database.ts'
import { loadMigrations } from '../db/migrations.ts'

export type Readiness = { ready: true } | { ready: false; reason: string }

/** How long the control plane may take to answer before the server is not ready. */
const READY_TIMEOUT_MS = 2_000

let shipped: Promise<string[]> | null = null
const shippedMigrations = () =>
  (shipped ??= loadMigrations().then((all) => all.map((m) => m.name)))

export class ReadinessCheck {
  // Probes that arrive while one is under way share its answer: a storm of probes against a
  // hung control plane must not take every connection of the pool.
  private running: Promise<Readiness> | null = null

  constructor(
    private readonly db: Db,
    private readonly timeoutMs = READY_TIMEOUT_MS,
  ) {}

  check(): Promise<Readiness> {
    this.running ??= this.checkOnce().finally(() => (this.running = null))
    return this.running
  }

  private async checkOnce(): Promise<Readiness> {
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.timeoutMs)
    })
    const applied = this.db
      .query<{ name: string }>('select name from schema_migrations')
      .then(
        ({ rows }) => new Set(rows.map((row) => row.name)),
        () => null,
      )
    const answer = await Promise.race([applied, late]).finally(() =>
      clearTimeout(timer),
    )
    if (answer === 'late')
      return {
        ready: false,
        reason: `The control plane did not answer within ${this.timeoutMs} ms`,
      }
    // The driver's message names hosts and ports: the probe's reader gets ours.
    if (answer === null)
      return { ready: false, reason: 'The control plane is unreachable' }
    const missing = (await shippedMigrations()).filter((n) => !answer.has(n))
    return missing.length > 0
      ? {
          ready: false,
          reason: `Migrations not applied: ${missing.join(', ')}`,
        }
      : { ready: true }
  }
}

/** GET handler: 200 `{status: 'ready'}`, else 503 with the reason. */
export function readinessRoute(db: Db) {
  const readiness = new ReadinessCheck(db)
  return async (c: Context) => {
    const answer = await readiness.check()
    return answer.ready
      ? c.json({ status: 'ready' })
      : c.json({ status: 'not_ready', reason: answer.reason }, 503)
  }
}
