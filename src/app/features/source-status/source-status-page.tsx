// /source-status/{sourceId} (public): a source's id and live state badge, for anyone with
// the link. It shows nothing else: no team, secret or connection details.
import { Alert, Box, Paper, Stack, Typography } from '@mui/material'
import { getRouteApi } from '@tanstack/react-router'
import { sourceDisplay } from '../../../shared/source-display.ts'
import { useDocumentTitle } from '../../components/document-title.ts'
import { Logo } from '../../components/logo.tsx'
import { PublicPage } from '../../components/public-page.tsx'
import { StateBadge } from '../sources/state-badge.tsx'
import { useSourceStatus, type SourceStatus } from './use-source-status.ts'

const route = getRouteApi('/source-status/$sourceId')

function Status({ status }: { status: SourceStatus }) {
  switch (status.kind) {
    case 'loading':
      return <Typography role="status">Loading...</Typography>
    case 'not-found':
      return <Alert severity="warning">Source not found</Alert>
    case 'failed':
      return <Alert severity="error">{status.message}</Alert>
    case 'found': {
      const display = sourceDisplay(status.source)
      return (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography color="text.secondary">Status</Typography>
          <StateBadge state={display.state} color={display.color} />
        </Stack>
      )
    }
  }
}

export function SourceStatusPage() {
  const { sourceId } = route.useParams()
  const status = useSourceStatus(sourceId)
  useDocumentTitle('Source status')
  return (
    <PublicPage>
      <Box sx={{ display: 'flex', justifyContent: 'center' }}>
        <Logo size={40} />
      </Box>
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Stack spacing={2}>
          <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
            Source status
          </Typography>
          <div>
            <Typography color="text.secondary" variant="body2">
              Source ID
            </Typography>
            <Typography
              sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}
            >
              {sourceId}
            </Typography>
          </div>
          <Status status={status} />
        </Stack>
      </Paper>
    </PublicPage>
  )
}
