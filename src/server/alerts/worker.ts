// The alert worker, one per server: on a timer (and when kicked) it runs the monitor (which
// opens and resolves incidents and queues their alerts) and then sends what is due, each
// call asynchronous and bounded (webhook.ts), so no request waits on it. Passes never overlap:
// a kick during one asks for another right after. Servers sharing a control plane may all run
// one; the incident index and the delivery leases keep every alert sent once.
import { openPassword } from '../platform/crypto/source-passwords.ts'
import type { Db } from '../platform/db/database.ts'
import type { Logger } from '../platform/log.ts'
import {
  pruneDeliveries,
  recordAttempt,
  takeDue,
  type AttemptOutcome,
  type DueDelivery,
} from './deliveries.ts'
import { planIncidents } from './incident-plan.ts'
import {
  openIncident,
  readConditions,
  readOpenIncidents,
  resolveIncident,
} from './incidents.ts'
import { emailAddressOf } from '../../shared/alerts.ts'
import { alertEmail, type Mailer } from './email.ts'
import { sendWebhook, type WebhookTargets } from './webhook.ts'

/** Waits before the 2nd to the 6th attempt; the 6th failing fails the delivery. */
const DEFAULT_RETRY_DELAYS_MS = [
  10_000, 30_000, 120_000, 600_000, 1_800_000,
] as const

export type AlertWorkerOptions = {
  db: Db
  /** The 'alert-secrets' key (crypto/secret.ts). */
  key: Buffer
  log: Logger
  targets: WebhookTargets
  retryDelaysMs?: readonly number[]
  /** How often the monitor looks and due deliveries are sent. */
  intervalMs?: number
  /** Each webhook call's whole deadline. */
  timeoutMs?: number
  /** Sends email destinations' alerts; absent without SMTP_URL (they then fail, logged). */
  mailer?: Mailer
  /** The public origin, for the link to a source's page in an email. */
  origin: string
}

const BATCH = 20
/** The delivery log keeps 30 days, pruned at most hourly. */
const KEEP_DAYS = 30
const PRUNE_EVERY_MS = 3_600_000

export class AlertWorker {
  private timer: NodeJS.Timeout | null = null
  private running: Promise<void> | null = null
  private again = false
  private prunedAt = 0
  private stopped = false
  private readonly retryDelaysMs: readonly number[]
  private readonly timeoutMs: number

  constructor(private readonly options: AlertWorkerOptions) {
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS
    this.timeoutMs = options.timeoutMs ?? 10_000
  }

  start(): void {
    this.timer = setInterval(
      () => this.kick(),
      this.options.intervalMs ?? 5_000,
    )
    this.timer.unref()
    this.kick()
  }

  /** Asks for a pass soon (a test alert was queued, a source changed). */
  kick(): void {
    if (this.stopped) return
    if (this.running) {
      this.again = true
      return
    }
    this.running = this.loop().finally(() => {
      this.running = null
    })
  }

  /** One pass now, for tests and the CLI: the monitor, then every due delivery. */
  async runOnce(): Promise<void> {
    await this.running
    await this.pass()
  }

  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearInterval(this.timer)
    await this.running
    this.options.mailer?.close()
  }

  private async loop(): Promise<void> {
    do {
      this.again = false
      try {
        await this.pass()
      } catch (error) {
        this.options.log.warn(`alert pass failed: ${(error as Error).message}`)
      }
    } while (this.again && !this.stopped)
  }

  private async pass(): Promise<void> {
    if (Date.now() - this.prunedAt >= PRUNE_EVERY_MS) {
      this.prunedAt = Date.now()
      await pruneDeliveries(this.options.db, KEEP_DAYS)
    }
    await this.monitor()
    for (;;) {
      const due = await takeDue(this.options.db, BATCH, this.timeoutMs + 30_000)
      if (due.length === 0) return
      await Promise.all(due.map((delivery) => this.deliver(delivery)))
      if (due.length < BATCH || this.stopped) return
    }
  }

  private async monitor(): Promise<void> {
    const { db } = this.options
    const plan = planIncidents(
      await readConditions(db),
      await readOpenIncidents(db),
    )
    for (const { incident, message } of plan.resolve)
      await resolveIncident(db, incident, message)
    for (const incident of plan.open) await openIncident(db, incident)
  }

  private async deliver(delivery: DueDelivery): Promise<void> {
    const email = emailAddressOf(delivery.url)
    const outcome =
      email === null
        ? await this.sendWebhook(delivery)
        : await this.sendEmail(delivery, email)
    // No retry helps a secret this server cannot open.
    const delays = outcome.final ? [] : this.retryDelaysMs
    await recordAttempt(this.options.db, delivery, outcome, delays)
  }

  private async sendEmail(
    delivery: DueDelivery,
    to: string,
  ): Promise<AttemptOutcome> {
    const { mailer, db, origin } = this.options
    if (!mailer)
      return {
        statusCode: null,
        error: 'Email is not configured on this server (SMTP_URL).',
      }
    const sourceId = delivery.payload.source_id
    const { rows } = sourceId
      ? await db.query<{ name: string | null }>(
          'select name from sources where id = $1',
          [sourceId],
        )
      : { rows: [] }
    const link = sourceId
      ? new URL(`/teams/${delivery.teamId}/${sourceId}`, origin).toString()
      : null
    return mailer.send({
      to,
      ...alertEmail(delivery.payload, { name: rows[0]?.name ?? null, link }),
    })
  }

  private async sendWebhook(delivery: DueDelivery): Promise<AttemptOutcome> {
    let secret: string
    try {
      if (!delivery.encryptedSecret) throw new Error('no secret')
      secret = openPassword(
        this.options.key,
        delivery.destinationId,
        delivery.encryptedSecret,
      )
    } catch {
      return {
        statusCode: null,
        final: true,
        error:
          "The destination's secret cannot be opened with this server's key: delete the destination and add it again.",
      }
    }
    return sendWebhook(delivery.url, JSON.stringify(delivery.payload), secret, {
      ...this.options.targets,
      timeoutMs: this.timeoutMs,
    })
  }
}
