// Sessions: a random token in an HttpOnly cookie, its hash in Postgres, idle and absolute expiry.
import type { AuthUser } from '../../shared/entities.ts'
import type { Db } from '../platform/db/database.ts'
import { hashToken, randomToken } from './tokens.ts'

export const SESSION_IDLE_MS = 14 * 24 * 3600 * 1000
export const SESSION_ABSOLUTE_MS = 60 * 24 * 3600 * 1000
// Writing last_seen_at on every request would turn reads into writes; a coarse clock is enough.
const TOUCH_AFTER_MS = 60 * 1000

export async function createSession(db: Db, userId: string): Promise<string> {
  const token = randomToken()
  await db.query(
    `insert into sessions (id, user_id, expires_at)
     values ($1, $2, now() + $3 * interval '1 millisecond')`,
    [hashToken(token), userId, SESSION_ABSOLUTE_MS],
  )
  return token
}

export type SessionUser = AuthUser & { sessionId: string }

/** The signed-in user for a token, or null when unknown, idle too long or past its end. */
export async function resolveSession(
  db: Db,
  token: string | undefined,
): Promise<SessionUser | null> {
  if (!token) return null
  const id = hashToken(token)
  const { rows } = await db.query<
    AuthUser & { stale: boolean; expired: boolean }
  >(
    `select u.id, u.email, u.name,
            s.last_seen_at < now() - $2 * interval '1 millisecond' as stale,
            s.expires_at <= now()
              or s.last_seen_at <= now() - $3 * interval '1 millisecond' as expired
       from sessions s join users u on u.id = s.user_id
      where s.id = $1`,
    [id, TOUCH_AFTER_MS, SESSION_IDLE_MS],
  )
  const row = rows[0]
  if (!row) return null
  if (row.expired) {
    await db.query('delete from sessions where id = $1', [id])
    return null
  }
  if (row.stale)
    await db.query('update sessions set last_seen_at = now() where id = $1', [
      id,
    ])
  return { id: row.id, email: row.email, name: row.name, sessionId: id }
}

/** Whether a session is still signed in (no touch: for re-checks within one request). */
export async function sessionIsLive(
  db: Db,
  sessionId: string,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `select 1 from sessions
      where id = $1 and expires_at > now()
        and last_seen_at > now() - $2 * interval '1 millisecond'`,
    [sessionId, SESSION_IDLE_MS],
  )
  return rowCount === 1
}

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db.query('delete from sessions where id = $1', [sessionId])
}

/** Expired sessions and abandoned sign-ins are deleted in the background now and then. */
export async function pruneExpired(db: Db): Promise<void> {
  await db.query(
    `delete from sessions
      where expires_at <= now() or last_seen_at <= now() - $1 * interval '1 millisecond'`,
    [SESSION_IDLE_MS],
  )
  await db.query('delete from oauth_states where expires_at <= now()')
}
