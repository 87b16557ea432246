import { createFileRoute } from '@tanstack/react-router'
import { SourceStatusPage } from '../../features/source-status/source-status-page.tsx'

export const Route = createFileRoute('/source-status/$sourceId')({
  component: SourceStatusPage,
})
