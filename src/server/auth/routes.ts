// /api/public/auth: OAuth sign-in (GitHub, Google), local sign-in, the current user, logout.
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { claimPagePath } from '../../shared/claimable-sources.ts'
import { idSchema, localLoginSchema } from '../../shared/entities.ts'
import { signInIdentity, type IdentityInput } from './users.ts'
import { clientIp } from '../platform/http/client-ip.ts'
import { ownOrigin, type AppEnv } from '../platform/http/context.ts'
import { readJson, readQuery } from '../platform/http/json.ts'
import {
  tooManyRequests,
  type RateLimiter,
} from '../platform/http/rate-limit.ts'
import { OAUTH_PARAM_MAX_LENGTH } from '../platform/limits.ts'
import {
  clearSessionCookie,
  readSessionCookie,
  setBindingCookie,
  setSessionCookie,
  takeBindingCookie,
} from './cookies.ts'
import { requireUser } from './middleware.ts'
import { consumeOAuthState, createOAuthState } from './oauth-states.ts'
import { configuredProviders, type ProviderName } from './providers.ts'
import { createSession, deleteSession, resolveSession } from './sessions.ts'

/** The app's page that offers name-and-email sign-in in local mode. */
const LOCAL_SIGN_IN_PAGE = '/sign-in/local'
const WELCOME_PAGE = '/welcome'

const providerNames = new Set<string>(['github', 'google'])

/**
 * `?claim=<claimId>` on a sign-in link (the claim page's): a valid id comes back to that claim
 * page after sign-in; anything else is dropped, so the parameter can never name a redirect.
 */
const claimOf = (c: Context<AppEnv>): string | null => {
  const claim = idSchema.safeParse(c.req.query('claim'))
  return claim.success ? claim.data : null
}

/**
 * Where a signed-in user goes: the claim page they came from, or home. A new user first answers
 * /welcome, which carries the claim on (`?claim=`) and goes there afterwards.
 */
function afterSignIn(created: boolean, claimPage: string | null): string {
  if (!created) return claimPage ?? '/'
  const claim = claimPage
    ? new URL(claimPage, 'http://sluice').searchParams.get('uuid')
    : null
  return claim
    ? `${WELCOME_PAGE}?claim=${encodeURIComponent(claim)}`
    : WELCOME_PAGE
}

// The code goes on to the provider and the error into a redirect: bounded before either.
const callbackParam = z
  .string()
  .max(
    OAUTH_PARAM_MAX_LENGTH,
    `must be at most ${OAUTH_PARAM_MAX_LENGTH} characters`,
  )
  .optional()
const callbackQuerySchema = z.object({
  state: callbackParam,
  code: callbackParam,
  error: callbackParam,
})

function providerFor(c: Context<AppEnv>) {
  const name = c.req.param('provider') ?? ''
  if (!providerNames.has(name)) return { name, provider: undefined }
  const providers = configuredProviders(
    c.var.deps.env,
    ownOrigin(c.var.deps.env, c.req.url),
  )
  return { name, provider: providers.get(name as ProviderName) }
}

// Every sign-in ends here: a fresh session token (never reused across sign-ins). The previous
// session ends only once the new user is found: a sign-in that fails leaves the caller as they
// were, signed in.
async function startSession(c: Context<AppEnv>, identity: IdentityInput) {
  const { db } = c.var.deps
  const user = await signInIdentity(db, identity)
  const previous = await resolveSession(db, readSessionCookie(c))
  if (previous) await deleteSession(db, previous.sessionId)
  setSessionCookie(c, await createSession(db, user.id), user.id)
  c.var.deps.log.info(`signed in user ${user.id} via ${identity.provider}`)
  return user
}

/** `localLogins`: the per-IP limit on local sign-ins, each of which can make a user. */
export const authRoutes = (localLogins: RateLimiter) =>
  new Hono<AppEnv>()
    .get('/:provider/login', async (c) => {
      const { env, db } = c.var.deps
      const { name, provider } = providerFor(c)
      const claim = claimOf(c)
      if (!provider) {
        if (providerNames.has(name) && env.localLoginEnabled)
          return c.redirect(
            claim
              ? `${LOCAL_SIGN_IN_PAGE}?claim=${encodeURIComponent(claim)}`
              : LOCAL_SIGN_IN_PAGE,
          )
        return c.json(
          { message: `Sign-in with ${name} is not configured` },
          404,
        )
      }
      const pending = provider.begin()
      // The claim rides in the state's row (never in the URL the provider sees).
      const { state, binding } = await createOAuthState(db, name, {
        ...pending,
        returnTo: claim ? claimPagePath(claim) : null,
      })
      setBindingCookie(c, name, binding)
      return c.redirect(provider.authorizationUrl(state, pending).toString())
    })
    .get('/:provider/callback', async (c) => {
      const { db, log } = c.var.deps
      const { name, provider } = providerFor(c)
      if (!provider)
        return c.json(
          { message: `Sign-in with ${name} is not configured` },
          404,
        )
      const query = readQuery(c, callbackQuerySchema)
      if (!query.success) return query.response
      const pending = await consumeOAuthState(
        db,
        name,
        query.data.state,
        takeBindingCookie(c, name),
      )
      if (!pending)
        return c.json(
          {
            message:
              'This sign-in link is invalid or has expired. Please sign in again.',
          },
          400,
        )
      const denied = query.data.error
      if (denied)
        return c.redirect(`/?sign_in_error=${encodeURIComponent(denied)}`)
      const code = query.data.code
      if (!code) return c.json({ message: 'Missing authorization code' }, 400)
      try {
        const identity = await provider.identify(code, pending)
        const user = await startSession(c, {
          provider: provider.name,
          ...identity,
        })
        // A new user is asked what they are building, once (docs/architecture.md).
        return c.redirect(afterSignIn(user.created, pending.returnTo ?? null))
      } catch (error) {
        log.warn(`sign-in with ${name} failed: ${(error as Error).message}`)
        return c.redirect('/?sign_in_error=provider_failed')
      }
    })
    .post('/local/login', async (c) => {
      if (!c.var.deps.env.localLoginEnabled)
        return c.json({ message: 'Local sign-in is not enabled' }, 404)
      const admission = await localLogins.admit(`ip:${clientIp(c)}`)
      if (!admission.admitted)
        return tooManyRequests(
          'Too many sign-ins from this address; please try again later.',
          admission.retryAfterSeconds,
        )
      const body = await readJson(c, localLoginSchema)
      if (!body.success) return body.response
      const { name, email } = body.data
      const user = await startSession(c, {
        provider: 'local',
        subject: email.toLowerCase(),
        email,
        name,
      })
      // `first_sign_in` sends the page to /welcome, as the OAuth callback's redirect does.
      return c.json({
        id: user.id,
        email: user.email,
        name: user.name,
        first_sign_in: user.created,
      })
    })
    .get('/user', requireUser, (c) => {
      const { id, email, name } = c.var.user
      return c.json({ id, email, name })
    })
    .post('/logout', async (c) => {
      const { db } = c.var.deps
      const session = await resolveSession(db, readSessionCookie(c))
      if (session) {
        await deleteSession(db, session.sessionId)
        c.var.sessionRequests.end(session.sessionId)
      }
      clearSessionCookie(c)
      // Shape answers are no-store, but a browser may hold some from before they were (a
      // week's lifetime, secrets included); the browser drops this origin's HTTP cache.
      c.header('clear-site-data', '"cache"')
      return c.json({ ok: true })
    })
    .get('/providers', (c) => {
      const { env } = c.var.deps
      return c.json({
        github: env.githubEnabled,
        google: env.googleEnabled,
        local: env.localLoginEnabled,
      })
    })
