import { createFileRoute } from '@tanstack/react-router'
import { sourceFilterSchema } from '../../../features/sources/source-projects.ts'
import { SourcesPage } from '../../../features/sources/sources-page.tsx'

export const Route = createFileRoute('/_dashboard/sources/')({
  validateSearch: sourceFilterSchema,
  component: SourcesPage,
})
