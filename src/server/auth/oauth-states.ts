// Pending OAuth sign-ins. The state travels through the provider; a random binding value stays
// in a short-lived cookie, so a state only works in the browser that started the sign-in, once.
// Starting one needs no account: the table is pruned and capped as states are made.
import type { Db } from '../platform/db/database.ts'
import { OAUTH_STATES_MAX } from '../platform/limits.ts'
import { hashToken, randomToken } from './tokens.ts'

export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000

export type PendingSignIn = {
  codeVerifier: string | null
  nonce: string | null
  /** Set when a signed-in user connects a provider account (providers/connect-routes.ts). */
  userId?: string | null
  returnTo?: string | null
}

export async function createOAuthState(
  db: Db,
  provider: string,
  extra: PendingSignIn,
): Promise<{ state: string; binding: string }> {
  const state = randomToken()
  const binding = randomToken()
  // Anyone may start a sign-in, so each start also clears what is past its time.
  await db.query('delete from oauth_states where expires_at <= now()')
  await db.query(
    `insert into oauth_states
       (id, provider, binding_hash, code_verifier, nonce, user_id, return_to, expires_at)
     values ($1, $2, $3, $4, $5, $7, $8, now() + $6 * interval '1 millisecond')`,
    [
      hashToken(state),
      provider,
      hashToken(binding),
      extra.codeVerifier,
      extra.nonce,
      OAUTH_STATE_TTL_MS,
      extra.userId ?? null,
      extra.returnTo ?? null,
    ],
  )
  // Past the cap the oldest go, this one never (limits.ts says why not refuse new ones).
  await db.query(
    `delete from oauth_states where id in (
       select id from oauth_states order by created_at desc offset $1)`,
    [OAUTH_STATES_MAX],
  )
  return { state, binding }
}

/** Redeems a state exactly once: deleted whether or not it matches, so it can never replay. */
export async function consumeOAuthState(
  db: Db,
  provider: string,
  state: string | undefined,
  binding: string | undefined,
): Promise<PendingSignIn | null> {
  if (!state) return null
  const { rows } = await db.query<{
    provider: string
    binding_hash: string
    code_verifier: string | null
    nonce: string | null
    user_id: string | null
    return_to: string | null
    live: boolean
  }>(
    `delete from oauth_states where id = $1
     returning provider, binding_hash, code_verifier, nonce, user_id, return_to,
               expires_at > now() as live`,
    [hashToken(state)],
  )
  const row = rows[0]
  if (
    !row ||
    !row.live ||
    !binding ||
    row.provider !== provider ||
    row.binding_hash !== hashToken(binding)
  )
    return null
  return {
    codeVerifier: row.code_verifier,
    nonce: row.nonce,
    userId: row.user_id,
    returnTo: row.return_to,
  }
}
