import { createFileRoute } from '@tanstack/react-router'
import { sourceFilterSchema } from '../../../../features/sources/source-projects.ts'
import { TeamPage } from '../../../../features/teams/team-page.tsx'

export const Route = createFileRoute('/_dashboard/teams/$teamId/')({
  validateSearch: sourceFilterSchema,
  component: TeamPage,
})
