import { createFileRoute } from '@tanstack/react-router'
import { TeamPage } from '../../../../features/teams/team-page.tsx'

export const Route = createFileRoute('/_dashboard/teams/$teamId/')({
  component: TeamPage,
})
