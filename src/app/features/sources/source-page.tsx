// /teams/{teamId}/{sourceId}: one source, its actions, replication health, its secret and how
// apps use it, live shapes and event logs.
import { Alert, Box, Stack } from '@mui/material'
import { getRouteApi } from '@tanstack/react-router'
import type { Source } from '../../../shared/entities.ts'
import { sourceLabel } from '../../../shared/source-display.ts'
import { PageTitle } from '../../components/page-title.tsx'
import { useSource, useSourceEventLogs } from '../../db/tab/hooks.ts'
import { EventLogTable } from './event-log-table.tsx'
import { LiveShapesSection } from './live-shapes-section.tsx'
import { MetricsSections } from './metrics/metrics-sections.tsx'
import { ReplicationHealth } from './replication-health.tsx'
import { SourceActions } from './source-actions.tsx'
import { SourceCard } from './source-card.tsx'
import { SourceSecret } from './source-secret.tsx'

const route = getRouteApi('/_dashboard/teams/$teamId/$sourceId')

export function SourcePage() {
  const { teamId, sourceId } = route.useParams()
  const source = useSource(sourceId)
  if (source === undefined) return null
  // A source of another of the user's teams under this team's path is not this page's source.
  if (source === null || source.team_id !== teamId)
    return <PageTitle>Source not found</PageTitle>
  return <SourceDetails source={source} />
}

// Split out so only a source the user has is followed for its event logs and live shapes.
function SourceDetails({ source }: { source: Source }) {
  const logs = useSourceEventLogs(source.id)
  return (
    <Stack spacing={3}>
      <PageTitle>{`Source: ${sourceLabel(source)}`}</PageTitle>
      <SourceActions source={source} logs={logs} />
      <Box sx={{ maxWidth: 720 }}>
        <SourceCard source={source} />
      </Box>
      {source.state_reason && (
        <Alert
          severity={source.state === 'error' ? 'error' : 'warning'}
          role="status"
          sx={{ maxWidth: 720 }}
        >
          {source.state_reason}
        </Alert>
      )}
      <ReplicationHealth source={source} />
      <SourceSecret source={source} />
      <LiveShapesSection source={source} />
      <MetricsSections source={source} />
      <EventLogTable logs={logs} />
    </Stack>
  )
}
