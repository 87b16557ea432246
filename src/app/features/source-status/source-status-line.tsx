// A source's public status as one line: 'Loading...', its live state badge, or why not; on
// the status page and the setup page's 'Source Added'.
import { Alert, Stack, Typography } from '@mui/material'
import { sourceDisplay } from '../../../shared/source-display.ts'
import { StateBadge } from '../sources/state-badge.tsx'
import type { SourceStatus } from './use-source-status.ts'

export function SourceStatusLine({ status }: { status: SourceStatus }) {
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
