// Authenticates /api/v1 requests that carry `Authorization: Bearer <token>`: resolves a team's
// API token into c.var.apiToken, refuses what the token may not call (scope.ts), applies the
// token's rate, and records every use in the team's audit. A Bearer request never falls back
// to the session cookie: a bad token is a 401 even when a cookie came along. A request another
// server forwarded here (cluster/forward.ts, the client's headers unchanged) is checked again
// but not counted or audited twice: the forwarding server did both, with this answer's status.
import { createMiddleware } from 'hono/factory'
import type { Context } from 'hono'
import type { AppEnv } from '../platform/http/context.ts'
import {
  tooManyRequests,
  type RateLimiter,
} from '../platform/http/rate-limit.ts'
import { recordApiTokenUse, resolveApiToken } from './api-tokens.ts'
import { tokenMayCall } from './scope.ts'
import {
  INTERNAL_SECRET_HEADER,
  sameSecret,
} from '../cluster/internal-request.ts'

/** Audited paths are cut here; a real one is far shorter. */
const AUDIT_PATH_MAX_LENGTH = 512

/** The token of a Bearer Authorization header; undefined when the request has none. */
export function bearerToken(c: Context): string | undefined {
  const header = c.req.header('authorization')
  const match =
    header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header)
  // Any other Authorization header is a bad token too, rather than a silent cookie fallback.
  return match ? match[1] : header === undefined ? undefined : ''
}

// The answers never echo the token: a script's logs keep what the server says.
const INVALID = { message: 'Invalid or expired API token' }
const OUT_OF_SCOPE = { message: 'An API token cannot call this route' }

/** `requests`: the rate of a token's requests, keyed by the token. */
export const bearerAuth = (requests: RateLimiter) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const token = bearerToken(c)
    if (token === undefined) return next()
    const db = c.var.deps.db
    const caller = token ? await resolveApiToken(db, token) : null
    if (!caller) return c.json(INVALID, 401)
    c.set('apiToken', caller)
    if (forwardedHere(c)) return refusedOutOfScope(c) ?? next()
    const refused = await refusal(c, requests, caller.tokenId)
    if (!refused) await next()
    // Refusals too: the audit shows what a token tried, not only what it did.
    const status = refused?.status ?? c.res.status
    await recordApiTokenUse(db, caller, {
      method: c.req.method,
      path: c.req.path.slice(0, AUDIT_PATH_MAX_LENGTH),
      status,
    })
    return refused ?? undefined
  })

const forwardedHere = (c: Context<AppEnv>) => {
  const given = c.req.header(INTERNAL_SECRET_HEADER)
  return (
    given !== undefined &&
    sameSecret(given, c.var.deps.env.SLUICE_INTERNAL_SECRET)
  )
}

const refusedOutOfScope = (c: Context<AppEnv>) =>
  tokenMayCall(c.req.method, c.req.path) ? null : c.json(OUT_OF_SCOPE, 403)

/** The answer when the token may not make this call now: out of its scope, or past its rate. */
async function refusal(
  c: Context<AppEnv>,
  requests: RateLimiter,
  tokenId: string,
): Promise<Response | null> {
  const outOfScope = refusedOutOfScope(c)
  if (outOfScope) return outOfScope
  const rate = await requests.admit(`token:${tokenId}`)
  if (rate.admitted) return null
  return tooManyRequests(
    'Too many requests with this API token; please try again in a minute.',
    rate.retryAfterSeconds,
  )
}
