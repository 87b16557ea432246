// /source-status/{sourceId} (public): a source's id and live state badge, for anyone with
// the link. It shows nothing else: no team, secret or connection details.
import { getRouteApi } from '@tanstack/react-router'
import { useDocumentTitle } from '../../components/document-title.ts'
import { LabelledId, PublicCard } from '../../components/public-page.tsx'
import { SourceStatusLine } from './source-status-line.tsx'
import { useSourceStatus } from './use-source-status.ts'

const route = getRouteApi('/source-status/$sourceId')

export function SourceStatusPage() {
  const { sourceId } = route.useParams()
  const status = useSourceStatus(sourceId)
  useDocumentTitle('Source status')
  return (
    <PublicCard title="Source status">
      <LabelledId label="Source ID" id={sourceId} />
      <SourceStatusLine status={status} />
    </PublicCard>
  )
}
