// Resolves the session cookie into c.var.user, or answers 401. Once per request: the app's
// /api/v1 gate and the router behind it both require a user without a second session lookup.
// A request a team's API token authenticated (api-tokens/bearer.ts) passes as it is: it reached
// only a route its scope allows, and that route reads who it acts for through auth/viewer.ts.
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../platform/http/context.ts'
import { readSessionCookie } from './cookies.ts'
import { resolveSession } from './sessions.ts'

export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get('user') as AppEnv['Variables']['user'] | undefined) return next()
  if (c.get('apiToken')) return next()
  const user = await resolveSession(c.var.deps.db, readSessionCookie(c))
  if (!user) return c.json({ message: 'Not signed in' }, 401)
  c.set('user', user)
  await next()
})

/** The same lookup for a route open to visitors too: c.var.user is set only when signed in. */
export const optionalUser = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get('user') as AppEnv['Variables']['user'] | undefined) return next()
  const user = await resolveSession(c.var.deps.db, readSessionCookie(c))
  if (user) c.set('user', user)
  await next()
})

/** For what only a signed-in user may do, whatever a token's scope says (minting tokens). */
export const requireSessionUser = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get('apiToken'))
    return c.json({ message: 'An API token cannot call this route' }, 403)
  return requireUser(c, next)
})
