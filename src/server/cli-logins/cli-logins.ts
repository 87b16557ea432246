// `sluice auth login` in the control plane: a login started by a terminal, approved by a
// signed-in member for one of their teams, and collected once by the terminal, which then gets
// a new team API token (api-tokens.ts), made at that moment so it is never stored in the clear.
// A login lasts LIFETIME_MS. Anyone may start one, so at most MAX_OPEN are kept, the newest:
// past it the oldest go (as OAuth states do, platform/limits.ts), so a flood of starts cannot
// block a real user's login, which lives the minute or two it takes to approve, unless it
// outpaces this many starts in that time.
import { randomInt } from 'node:crypto'
import type { CliLogin } from '../../shared/cli-logins.ts'
import { hashToken, randomToken } from '../auth/tokens.ts'
import type { Db } from '../platform/db/database.ts'
import { createApiToken } from '../api-tokens/api-tokens.ts'

const LIFETIME_MS = 10 * 60 * 1000
const MAX_OPEN = 1_000
// Letters and digits that cannot be misread for one another (no 0/O, 1/I/L).
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'

function userCode(): string {
  const pick = () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)] as string
  const half = () => Array.from({ length: 4 }, pick).join('')
  return `${half()}-${half()}`
}

export type StartedLogin = {
  id: string
  poll_secret: string
  user_code: string
  expires_at: string
}

/** A new login; expired ones, and the oldest past MAX_OPEN, are pruned on the way. */
export async function startLogin(
  db: Db,
  machine: string,
): Promise<StartedLogin> {
  const pollSecret = randomToken()
  const code = userCode()
  const { rows } = await db.query<{ id: string; expires_at: string }>(
    `insert into cli_logins (poll_hash, user_code, machine, expires_at)
     values ($1, $2, $3, now() + $4 * interval '1 millisecond')
     returning id, to_json(expires_at) #>> '{}' as expires_at`,
    [hashToken(pollSecret), code, machine, LIFETIME_MS],
  )
  await db.query(
    `delete from cli_logins
      where expires_at < now() - interval '1 hour'
         or id in (select id from cli_logins order by created_at desc, id offset $1)`,
    [MAX_OPEN],
  )
  const row = rows[0] as { id: string; expires_at: string }
  return {
    id: row.id,
    poll_secret: pollSecret,
    user_code: code,
    expires_at: row.expires_at,
  }
}

/** What the approving member sees; null for an unknown login or one long gone. */
export async function readLogin(db: Db, id: string): Promise<CliLogin | null> {
  const { rows } = await db.query<CliLogin>(
    `select id, user_code, machine, to_json(expires_at) #>> '{}' as expires_at,
            case when approved_at is not null then 'approved'
                 when expires_at <= now() then 'expired'
                 else 'pending' end as state
       from cli_logins where id = $1`,
    [id],
  )
  return rows[0] ?? null
}

/** Approves a pending login for `teamId` (the caller checked membership); false if not pending. */
export async function approveLogin(
  db: Db,
  id: string,
  userId: string,
  teamId: string,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `update cli_logins set approved_by = $2, team_id = $3, approved_at = now()
      where id = $1 and approved_at is null and expires_at > now()`,
    [id, userId, teamId],
  )
  return rowCount === 1
}

export type Collected =
  | { kind: 'pending' }
  /** Unknown, wrong secret, expired, or collected already: all alike. */
  | { kind: 'gone' }
  | { kind: 'full' }
  | { kind: 'token'; token: string; team_id: string }

/** The terminal asks for its token: made now, once, for the approved team. */
export async function collectLogin(
  db: Db,
  id: string,
  pollSecret: string,
  maxLive: number,
): Promise<Collected> {
  const { rows } = await db.query<{
    approved: boolean
    team_id: string | null
    approved_by: string | null
    machine: string
  }>(
    `update cli_logins set collected_at = case when approved_at is not null then now() end
      where id = $1 and poll_hash = $2 and collected_at is null and expires_at > now()
      returning approved_at is not null as approved, team_id, approved_by, machine`,
    [id, hashToken(pollSecret)],
  )
  const row = rows[0]
  if (!row) return { kind: 'gone' }
  if (!row.approved || !row.team_id || !row.approved_by)
    return { kind: 'pending' }
  const made = await createApiToken(db, {
    teamId: row.team_id,
    name: `sluice CLI on ${row.machine}`,
    expiresAt: null,
    createdBy: row.approved_by,
    maxLive,
  })
  if (made.kind === 'created')
    return { kind: 'token', token: made.token.token, team_id: row.team_id }
  // Not made: the login may be collected again once the team has room.
  await db.query('update cli_logins set collected_at = null where id = $1', [
    id,
  ])
  return made.kind === 'full' ? { kind: 'full' } : { kind: 'gone' }
}
