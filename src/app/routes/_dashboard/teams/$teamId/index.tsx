import { createFileRoute } from '@tanstack/react-router'
import { fetchTeamUsers } from '../../../../db/queries.ts'
import { TeamPage } from '../../../../features/teams/team-page.tsx'

export const Route = createFileRoute('/_dashboard/teams/$teamId/')({
  loader: async ({ params, parentMatchPromise }) => {
    // Only ask for the members of a team the user is known to be in.
    const { loaderData } = await parentMatchPromise
    const known = loaderData?.teams.some((team) => team.id === params.teamId)
    return {
      teamId: params.teamId,
      users: known ? await fetchTeamUsers(params.teamId) : null,
    }
  },
  component: TeamPage,
})
