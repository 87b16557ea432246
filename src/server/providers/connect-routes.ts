// /api/public/auth/{supabase,neon}/login and /callback: connecting a signed-in user's provider
// account by OAuth. The state is the sign-in's (single-use, bound to this browser by a cookie)
// and also to this user; every outcome is a redirect to the wizard page the user came from,
// with `provider_error` when nothing was connected.
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import {
  readSessionCookie,
  setBindingCookie,
  takeBindingCookie,
} from '../auth/cookies.ts'
import { consumeOAuthState, createOAuthState } from '../auth/oauth-states.ts'
import { resolveSession } from '../auth/sessions.ts'
import type { AppEnv } from '../platform/http/context.ts'
import { OAUTH_PARAM_MAX_LENGTH } from '../platform/limits.ts'
import { saveConnection } from './connections.ts'
import { LABEL, oauthFor } from './context.ts'
import type { ProviderName } from './oauth.ts'

const RETURN_TO_MAX_LENGTH = 512

const WIZARD = '/sources/new/'

/**
 * Only a path of the wizard's own pages: never another origin, never another part of the app.
 * Checked after resolving, so dot segments cannot climb out (`/sources/new/../../..//evil`
 * would otherwise become the protocol-relative `//evil`).
 */
const returnToSchema = z
  .string()
  .max(RETURN_TO_MAX_LENGTH)
  .refine((value) => {
    if (!value.startsWith(WIZARD) || /[\\\s]/.test(value)) return false
    const resolved = new URL(value, 'http://sluice.invalid')
    return (
      resolved.origin === 'http://sluice.invalid' &&
      resolved.pathname.startsWith(WIZARD)
    )
  })

const param = z.string().max(OAUTH_PARAM_MAX_LENGTH).optional()
const callbackQuery = z.object({ state: param, code: param, error: param })

function back(c: Context<AppEnv>, returnTo: string, error?: string) {
  const url = new URL(returnTo, 'http://sluice.invalid')
  if (error) url.searchParams.set('provider_error', error)
  return c.redirect(`${url.pathname}${url.search}`)
}

export function connectRoutes(provider: ProviderName) {
  const label = LABEL[provider]
  const fallback = `/sources/new/${provider}/`
  return new Hono<AppEnv>()
    .get('/login', async (c) => {
      const { db } = c.var.deps
      const asked = returnToSchema.safeParse(c.req.query('return_to'))
      const returnTo = asked.success ? asked.data : fallback
      const user = await resolveSession(db, readSessionCookie(c))
      if (!user) return back(c, returnTo, `Sign in before connecting ${label}.`)
      const oauth = oauthFor(c, provider)
      if (!oauth)
        return back(
          c,
          returnTo,
          `Connecting ${label} by OAuth is not configured on this server; use a token instead.`,
        )
      const codeVerifier = oauth.begin()
      const { state, binding } = await createOAuthState(db, provider, {
        codeVerifier,
        nonce: null,
        userId: user.id,
        returnTo,
      })
      setBindingCookie(c, provider, binding)
      return c.redirect(oauth.authorizationUrl(state, codeVerifier).toString())
    })
    .get('/callback', async (c) => {
      const { db, log } = c.var.deps
      const query = callbackQuery.safeParse(c.req.query())
      const pending = await consumeOAuthState(
        db,
        provider,
        query.success ? query.data.state : undefined,
        takeBindingCookie(c, provider),
      )
      const user = await resolveSession(db, readSessionCookie(c))
      // A forged, replayed or expired state, or a different user: nothing is connected.
      if (!pending || !query.success || !user || pending.userId !== user.id)
        return back(
          c,
          pending?.returnTo ?? fallback,
          `This ${label} connection link is invalid or has expired. Please connect again.`,
        )
      const returnTo = pending.returnTo ?? fallback
      const oauth = oauthFor(c, provider)
      if (!oauth)
        return back(
          c,
          returnTo,
          `Connecting ${label} by OAuth is not configured.`,
        )
      if (query.data.error || !query.data.code)
        return back(c, returnTo, `${label} did not grant access.`)
      try {
        const tokens = await oauth.exchange(
          query.data.code,
          pending.codeVerifier ?? '',
        )
        const key = c.var.deps.keys['provider-tokens']
        await saveConnection(db, key, user.id, provider, 'oauth', tokens)
      } catch (error) {
        // The error's name only: a provider's message could echo the code.
        log.warn(`connecting ${provider} failed: ${(error as Error).name}`)
        return back(c, returnTo, `${label} did not complete the connection.`)
      }
      log.info(`user ${user.id} connected ${provider} by OAuth`)
      return back(c, returnTo)
    })
}
