import { createFileRoute } from '@tanstack/react-router'
import { SourcesPage } from '../../../features/sources/sources-page.tsx'

export const Route = createFileRoute('/_dashboard/sources/')({
  component: SourcesPage,
})
