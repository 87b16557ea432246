import { createFileRoute } from '@tanstack/react-router'
import { NeonProjectsPage } from '../../../../../features/providers/neon-projects-page.tsx'

export const Route = createFileRoute('/_dashboard/sources/new/neon/')({
  component: NeonProjectsPage,
})
