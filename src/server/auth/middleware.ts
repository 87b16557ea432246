// Resolves the session cookie into c.var.user, or answers 401. Once per request: the app's
// /api/v1 gate and the router behind it both require a user without a second session lookup.
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../platform/http/context.ts'
import { readSessionCookie } from './cookies.ts'
import { resolveSession } from './sessions.ts'

export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get('user') as AppEnv['Variables']['user'] | undefined) return next()
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
