// /api/v1: the signed-in user's own data over REST (spec §7), for API clients. The dashboard
// reads the same rows through its shapes (gateway/); every read is scoped to the session's user.
import { Hono } from 'hono'
import { idSchema } from '../../shared/entities.ts'
import { requireUser } from '../auth/middleware.ts'
import {
  getTeam,
  listSources,
  listTeamUsers,
  listTeams,
} from '../control/teams.ts'
import { getUser } from '../control/users.ts'
import type { AppEnv } from '../http/context.ts'

const notFound = { message: 'Team not found' }

export const apiRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get('/users/me', async (c) => {
    const user = await getUser(c.var.deps.db, c.var.user.id)
    return user ? c.json(user) : c.json({ message: 'User not found' }, 404)
  })
  .get('/teams', async (c) =>
    c.json(await listTeams(c.var.deps.db, c.var.user.id)),
  )
  .get('/teams/:teamId', async (c) => {
    const teamId = idSchema.safeParse(c.req.param('teamId'))
    if (!teamId.success) return c.json(notFound, 404)
    const team = await getTeam(c.var.deps.db, c.var.user.id, teamId.data)
    return team ? c.json(team) : c.json(notFound, 404)
  })
  .get('/teams/:teamId/users', async (c) => {
    const teamId = idSchema.safeParse(c.req.param('teamId'))
    if (!teamId.success) return c.json(notFound, 404)
    const users = await listTeamUsers(c.var.deps.db, c.var.user.id, teamId.data)
    return users ? c.json(users) : c.json(notFound, 404)
  })
  .get('/sources', async (c) =>
    c.json(await listSources(c.var.deps.db, c.var.user.id)),
  )
