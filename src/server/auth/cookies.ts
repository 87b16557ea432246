// The session cookie and the short-lived sign-in binding cookie, set one way everywhere.
import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { isHttps, type AppEnv } from '../platform/http/context.ts'
import { OAUTH_STATE_TTL_MS } from './oauth-states.ts'
import { SESSION_ABSOLUTE_MS } from './sessions.ts'
import { API_MOUNTS } from '../../shared/api-routes.ts'

export const SESSION_COOKIE = 'sluice_session'
/**
 * Readable by the page (not HttpOnly), set and cleared with the session cookie: tells the app
 * a session may exist, so a signed-out visit does not ask who is signed in only to be told
 * 401, and whose it is (the user's id), so a repeat visit can show that user's last screen
 * while the server is asked. It grants nothing; the session cookie alone is checked.
 */
export const SESSION_HINT_COOKIE = 'sluice_signed_in'
const bindingCookie = (provider: string) => `sluice_oauth_${provider}`
const CALLBACK_PATH = API_MOUNTS.auth

const secure = (c: Context<AppEnv>) => isHttps(c.var.deps.env, c.req.url)

export function readSessionCookie(c: Context<AppEnv>): string | undefined {
  return getCookie(c, SESSION_COOKIE)
}

export function setSessionCookie(
  c: Context<AppEnv>,
  token: string,
  userId: string,
): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    secure: secure(c),
    maxAge: Math.floor(SESSION_ABSOLUTE_MS / 1000),
  })
  setCookie(c, SESSION_HINT_COOKIE, userId, {
    sameSite: 'Lax',
    path: '/',
    secure: secure(c),
    maxAge: Math.floor(SESSION_ABSOLUTE_MS / 1000),
  })
}

export function clearSessionCookie(c: Context<AppEnv>): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure: secure(c) })
  deleteCookie(c, SESSION_HINT_COOKIE, { path: '/', secure: secure(c) })
}

export function setBindingCookie(
  c: Context<AppEnv>,
  provider: string,
  value: string,
): void {
  setCookie(c, bindingCookie(provider), value, {
    httpOnly: true,
    // Lax: the provider's redirect back to us is a top-level GET, which Lax cookies survive.
    sameSite: 'Lax',
    path: CALLBACK_PATH,
    secure: secure(c),
    maxAge: Math.floor(OAUTH_STATE_TTL_MS / 1000),
  })
}

export function takeBindingCookie(
  c: Context<AppEnv>,
  provider: string,
): string | undefined {
  const value = getCookie(c, bindingCookie(provider))
  deleteCookie(c, bindingCookie(provider), {
    path: CALLBACK_PATH,
    secure: secure(c),
  })
  return value
}
