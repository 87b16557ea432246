// /api/v1/teams: the signed-in user's teams and their members over REST, for API
// clients; the dashboard reads the same rows through its shapes (gateway/). Another team
// answers exactly like a missing one. A team's setup links are their own router
// (setup-forms.ts), and so are its alert destinations and settings (alert-destinations.ts)
// and its API tokens (api-tokens/routes.ts).
import { Hono, type Context } from 'hono'
import { idSchema } from '../../shared/entities.ts'
import { requireUser } from '../auth/middleware.ts'
import { getTeam, listTeamUsers, listTeams } from './teams.ts'
import { viewerOf } from '../auth/viewer.ts'
import type { AppEnv } from '../platform/http/context.ts'
import type { Limiters } from '../platform/limits.ts'
import {
  alertDestinationRoutes,
  alertSettingsRoutes,
} from '../alerts/routes.ts'
import { setupFormRoutes } from '../setup-links/team-routes.ts'
import { apiTokenRoutes } from '../api-tokens/routes.ts'
import { TEAM_RESOURCES } from '../../shared/api-routes.ts'

const notFound = { message: 'Team not found' }

const teamIdOf = (c: Context<AppEnv>) => {
  const teamId = idSchema.safeParse(c.req.param('teamId'))
  return teamId.success ? teamId.data : null
}

/** `testAlerts`: the rates of test alerts (alert-destinations.ts). */
export const teamRoutes = (testAlerts: Limiters['testAlerts']) =>
  new Hono<AppEnv>()
    .use(requireUser)
    .get('/', async (c) => c.json(await listTeams(c.var.deps.db, viewerOf(c))))
    .get('/:teamId', async (c) => {
      const teamId = teamIdOf(c)
      if (!teamId) return c.json(notFound, 404)
      const team = await getTeam(c.var.deps.db, viewerOf(c), teamId)
      return team ? c.json(team) : c.json(notFound, 404)
    })
    .get('/:teamId/users', async (c) => {
      const teamId = teamIdOf(c)
      if (!teamId) return c.json(notFound, 404)
      const users = await listTeamUsers(c.var.deps.db, viewerOf(c), teamId)
      return users ? c.json(users) : c.json(notFound, 404)
    })
    .route(`/:teamId${TEAM_RESOURCES.setupForms}`, setupFormRoutes)
    .route(
      `/:teamId${TEAM_RESOURCES.alertDestinations}`,
      alertDestinationRoutes(testAlerts),
    )
    .route(`/:teamId${TEAM_RESOURCES.alertSettings}`, alertSettingsRoutes)
    .route(`/:teamId${TEAM_RESOURCES.apiTokens}`, apiTokenRoutes)
