// What every /api/v1/teams/:teamId/... router of a team's own things starts with: the team's
// id, when the signed-in user is one of its members, or the request's API token is the team's
// (auth/viewer.ts). Another team answers exactly like a missing one (404).
import type { Context } from 'hono'
import { idSchema } from '../../shared/entities.ts'
import { getTeam } from './teams.ts'
import { viewerOf } from '../auth/viewer.ts'
import type { AppEnv } from '../platform/http/context.ts'

/** The route's team, when the caller may see it. */
export async function memberTeamId(c: Context<AppEnv>): Promise<string | null> {
  const teamId = idSchema.safeParse(c.req.param('teamId'))
  if (!teamId.success) return null
  const team = await getTeam(c.var.deps.db, viewerOf(c), teamId.data)
  return team?.id ?? null
}

export const teamNotFound = (c: Context) =>
  c.json({ message: 'Team not found' }, 404)
