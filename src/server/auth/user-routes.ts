// /api/v1/users: the signed-in user over REST, for API clients; the dashboard reads
// the same row through its shape (gateway/).
import { Hono } from 'hono'
import { requireUser } from './middleware.ts'
import { getUser } from './users.ts'
import type { AppEnv } from '../platform/http/context.ts'

export const userRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get('/me', async (c) => {
    const user = await getUser(c.var.deps.db, c.var.user.id)
    return user ? c.json(user) : c.json({ message: 'User not found' }, 404)
  })
