// The delivery queue's reads and writes: take the deliveries that are due (with a lease, so
// two workers never send one at once), and record each attempt in the delivery log together
// with what comes next: delivered, retried after the next backoff delay, or failed for good.
import type { AlertPayload } from '../../shared/alerts.ts'
import { transaction, type Db } from '../platform/db/database.ts'

export type DueDelivery = {
  id: string
  teamId: string
  destinationId: string
  /** The webhook's URL, or `mailto:<address>` for an email destination. */
  url: string
  /** A webhook's sealed secret; null for email, which is not signed. */
  encryptedSecret: Buffer | null
  event: string
  state: string
  payload: AlertPayload
  /** Attempts made before this one. */
  attempts: number
}

/**
 * Takes up to `limit` due deliveries to live destinations and leases them for `leaseMs` (past
 * every attempt's own timeout), so a worker that dies mid-send leaves them to be taken again.
 */
export async function takeDue(
  db: Db,
  limit: number,
  leaseMs: number,
): Promise<DueDelivery[]> {
  const { rows } = await db.query<{
    id: string
    team_id: string
    destination_id: string
    url: string
    encrypted_secret: Buffer | null
    event: string
    state: string
    payload: AlertPayload
    attempts: number
  }>(
    `with due as (
       select d.id from alert_deliveries d
         join alert_destinations t on t.id = d.destination_id and t.deleted_at is null
        where d.status = 'pending' and d.next_attempt_at <= now()
          and (d.lease_until is null or d.lease_until < now())
        order by d.next_attempt_at limit $1
        for update of d skip locked)
     update alert_deliveries d
        set lease_until = now() + make_interval(secs => $2::float8 / 1000)
       from due, alert_destinations t
      where d.id = due.id and t.id = d.destination_id
      returning d.id, d.team_id, d.destination_id, t.url, t.encrypted_secret, d.event,
                d.state, d.payload, d.attempts`,
    [limit, leaseMs],
  )
  return rows.map((row) => ({
    id: row.id,
    teamId: row.team_id,
    destinationId: row.destination_id,
    url: row.url,
    encryptedSecret: row.encrypted_secret,
    event: row.event,
    state: row.state,
    payload: row.payload,
    attempts: row.attempts,
  }))
}

export type AttemptOutcome = {
  statusCode: number | null
  /** Sluice's own words for a failure; null when the receiver answered 2xx. */
  error: string | null
  /** A failure no retry can mend: the delivery fails at once. */
  final?: boolean
}

/**
 * Logs an attempt and moves the delivery on: delivered on a 2xx, else retried after
 * `retryDelaysMs[attempts - 1]`, or failed once the delays are used up.
 */
export async function recordAttempt(
  db: Db,
  delivery: DueDelivery,
  outcome: AttemptOutcome,
  retryDelaysMs: readonly number[],
): Promise<void> {
  const attempt = delivery.attempts + 1
  const delivered = outcome.error === null
  const delay = retryDelaysMs[attempt - 1]
  const status = delivered
    ? 'delivered'
    : delay === undefined
      ? 'failed'
      : 'pending'
  await transaction(db, async (client) => {
    await client.query(
      `insert into alert_delivery_attempts
         (team_id, delivery_id, destination_id, event, state, attempt, status_code, error,
          delivered)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        delivery.teamId,
        delivery.id,
        delivery.destinationId,
        delivery.event,
        delivery.state,
        attempt,
        outcome.statusCode,
        outcome.error,
        delivered,
      ],
    )
    // A destination deleted during the attempt already failed the delivery: keep that.
    await client.query(
      `update alert_deliveries
          set attempts = $2, status = $3, lease_until = null,
              next_attempt_at = now() + make_interval(secs => $4::float8 / 1000)
        where id = $1 and status = 'pending'`,
      [delivery.id, attempt, status, delay ?? 0],
    )
  })
}

/**
 * Drops finished deliveries (with their logged attempts, by cascade) and resolved incidents
 * older than `keepDays`, so the log a team's browsers sync stays bounded.
 */
export async function pruneDeliveries(db: Db, keepDays: number): Promise<void> {
  await db.query(
    `delete from alert_deliveries
      where status <> 'pending' and created_at < now() - make_interval(days => $1)`,
    [keepDays],
  )
  await db.query(
    `delete from alert_incidents
      where resolved_at < now() - make_interval(days => $1)`,
    [keepDays],
  )
}
