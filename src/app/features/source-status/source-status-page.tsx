// /source-status/{sourceId} (public): a source's id and live state badge, for anyone with
// the link. It shows nothing else: no team, secret or connection details.
import { Box, Paper, Stack, Typography } from '@mui/material'
import { getRouteApi } from '@tanstack/react-router'
import { useDocumentTitle } from '../../components/document-title.ts'
import { Logo } from '../../components/logo.tsx'
import { PublicPage } from '../../components/public-page.tsx'
import { SourceStatusLine } from './source-status-line.tsx'
import { useSourceStatus } from './use-source-status.ts'

const route = getRouteApi('/source-status/$sourceId')

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
          <SourceStatusLine status={status} />
        </Stack>
      </Paper>
    </PublicPage>
  )
}
