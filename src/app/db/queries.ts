// Named reads of the dashboard's data. Pages use these hooks and never fetch lists themselves,
// so moving the reads onto the synced local store changes this file, not the pages.
import { getRouteApi } from '@tanstack/react-router'
import { z } from 'zod'
import {
  authUserSchema,
  sourceSchema,
  teamSchema,
  teamUserSchema,
  userSchema,
  type Source,
  type Team,
  type TeamUser,
  type User,
} from '../../shared/entities.ts'
import { api, ApiError } from '../lib/api.ts'

export const fetchAuthUser = () => api('/api/public/auth/user', authUserSchema)

export async function fetchDashboard() {
  const [user, teams, sources] = await Promise.all([
    api('/api/v1/users/me', userSchema),
    api('/api/v1/teams', z.array(teamSchema)),
    api('/api/v1/sources', z.array(sourceSchema)),
  ])
  return { user, teams, sources }
}

/** Users of a team, or null when the team is unknown or not the user's. */
export async function fetchTeamUsers(
  teamId: string,
): Promise<TeamUser[] | null> {
  try {
    return await api(
      `/api/v1/teams/${encodeURIComponent(teamId)}/users`,
      z.array(teamUserSchema),
    )
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null
    throw error
  }
}

const dashboard = getRouteApi('/_dashboard')
const teamRoute = getRouteApi('/_dashboard/teams/$teamId/')

export const useCurrentUser = (): User => dashboard.useLoaderData().user
export const useTeams = (): Team[] => dashboard.useLoaderData().teams

export function useTeam(teamId: string): Team | undefined {
  return useTeams().find((team) => team.id === teamId)
}

export function useTeamSources(teamId: string): Source[] {
  const { sources } = dashboard.useLoaderData()
  return sources.filter((s) => s.team_id === teamId)
}

export function useHasAnySource(): boolean {
  return dashboard.useLoaderData().sources.length > 0
}

/** Users of the team being viewed; null when that team is not found. */
export function useTeamUsers(teamId: string): TeamUser[] | null {
  const loaded = teamRoute.useLoaderData()
  return loaded.teamId === teamId ? loaded.users : null
}
