import { createFileRoute } from '@tanstack/react-router'
import { SourcePage } from '../../../../features/sources/source-page.tsx'

export const Route = createFileRoute('/_dashboard/teams/$teamId/$sourceId')({
  component: SourcePage,
})
