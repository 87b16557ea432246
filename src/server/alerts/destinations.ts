// A team's alert destinations (migrations 0010, 0011): webhooks, and email addresses as
// `mailto:` URLs. Membership is the caller's to check; these take a team id. A webhook's secret
// is made here, sealed before it is written, and answered only by createDestination, once.
import { randomBytes, randomUUID } from 'node:crypto'
import { emailAddressOf, type AlertDestination } from '../../shared/alerts.ts'
import { sealPassword } from '../platform/crypto/source-passwords.ts'
import { transactionWithTxid, type Db } from '../platform/db/database.ts'
import { lockTeamForCreate } from '../teams/teams.ts'

type Queryable = Pick<Db, 'query'>

const iso = (column: string) => `to_json(${column}) #>> '{}' as ${column}`
const columns = `id, team_id, url, created_by, ${iso('created_at')}, ${iso('deleted_at')}`

export type CreatedDestination =
  | {
      kind: 'created'
      destination: AlertDestination
      /** A webhook's signing secret; null for email. */
      secret: string | null
      txid: number
    }
  | { kind: 'no_team' }
  | { kind: 'full' }

export async function createDestination(
  db: Db,
  key: Buffer,
  input: { teamId: string; url: string; createdBy: string; max: number },
): Promise<CreatedDestination> {
  const id = randomUUID()
  // 256 random bits; the prefix tells a reader what the string is for. Email is not signed.
  const secret =
    emailAddressOf(input.url) === null
      ? `whsec_${randomBytes(32).toString('hex')}`
      : null
  const { result, txid } = await transactionWithTxid(db, async (client) => {
    // Creates for one team queue here, so two at once cannot both pass the count.
    if (!(await lockTeamForCreate(client, input.teamId)))
      return 'no_team' as const
    const live = await client.query<{ n: number }>(
      `select count(*)::int as n from alert_destinations
        where team_id = $1 and deleted_at is null`,
      [input.teamId],
    )
    if ((live.rows[0]?.n ?? 0) >= input.max) return 'full' as const
    const { rows } = await client.query<AlertDestination>(
      `insert into alert_destinations (id, team_id, url, encrypted_secret, created_by)
       values ($1, $2, $3, $4, $5) returning ${columns}`,
      [
        id,
        input.teamId,
        input.url,
        secret === null ? null : sealPassword(key, id, secret),
        input.createdBy,
      ],
    )
    return rows[0] as AlertDestination
  })
  if (result === 'no_team' || result === 'full') return { kind: result }
  return { kind: 'created', destination: result, secret, txid }
}

/** A team's destinations that are not deleted, oldest first. */
export async function listDestinations(
  db: Queryable,
  teamId: string,
): Promise<AlertDestination[]> {
  const { rows } = await db.query<AlertDestination>(
    `select ${columns} from alert_destinations
      where team_id = $1 and deleted_at is null order by created_at, id`,
    [teamId],
  )
  return rows
}

/** One live destination of a team, or null. */
export async function getDestination(
  db: Queryable,
  teamId: string,
  destinationId: string,
): Promise<AlertDestination | null> {
  const { rows } = await db.query<AlertDestination>(
    `select ${columns} from alert_destinations
      where id = $1 and team_id = $2 and deleted_at is null`,
    [destinationId, teamId],
  )
  return rows[0] ?? null
}

/**
 * Soft-deletes a destination and gives up its pending deliveries (nobody should receive them
 * any more). Null when the team has no such live destination.
 */
export async function deleteDestination(
  db: Db,
  teamId: string,
  destinationId: string,
): Promise<{ txid: number } | null> {
  const { result, txid } = await transactionWithTxid(db, async (client) => {
    const { rowCount } = await client.query(
      `update alert_destinations set deleted_at = now()
        where id = $1 and team_id = $2 and deleted_at is null`,
      [destinationId, teamId],
    )
    if (rowCount === 0) return false
    await client.query(
      `update alert_deliveries set status = 'failed'
        where destination_id = $1 and status = 'pending'`,
      [destinationId],
    )
    return true
  })
  return result ? { txid } : null
}
