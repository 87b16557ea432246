// The setup page once its source is added ('Source Added'): the source's live status
// (the public status shape), a link to its status page, its id and secret to copy, and a
// sample curl of its first shape request.
import { Box, Paper, Stack, Typography } from '@mui/material'
import { TextLink } from '../../components/links.tsx'
import { SourceStatusLine } from '../source-status/source-status-line.tsx'
import { useSourceStatus } from '../source-status/use-source-status.ts'
import { CopyButton } from '../../components/copy-button.tsx'
import { shapeCurl } from '../shapes/snippets.ts'
import { API_MOUNTS } from '../../../shared/api-routes.ts'

/** The sample's table: the reader puts one of theirs in its place. */
const SAMPLE_TABLE = 'items'

function Copyable(props: { label: string; value: string }) {
  return (
    <div>
      <Typography color="text.secondary" variant="body2">
        {props.label}
      </Typography>
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
        <Typography sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
          {props.value}
        </Typography>
        <CopyButton value={props.value} label={`Copy ${props.label}`} />
      </Stack>
    </div>
  )
}

export function SourceAdded(props: { id: string; secret: string }) {
  const status = useSourceStatus(props.id)
  const curl = shapeCurl(
    new URL(API_MOUNTS.shape, location.origin).toString(),
    {
      table: SAMPLE_TABLE,
      source_id: props.id,
      source_secret: props.secret,
    },
  )
  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Stack spacing={2}>
        <Typography variant="h5" component="h2" sx={{ fontWeight: 700 }}>
          Source Added
        </Typography>
        <SourceStatusLine status={status} />
        <TextLink to="/source-status/$sourceId" params={{ sourceId: props.id }}>
          View source status
        </TextLink>
        <Copyable label="Source ID" value={props.id} />
        <Copyable label="Source Secret" value={props.secret} />
        <Typography variant="body2" color="text.secondary">
          Keep the secret safe: with the id it reads your data. Try a shape of
          one of your tables (in place of {SAMPLE_TABLE}):
        </Typography>
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'flex-start' }}>
          <Box
            component="pre"
            aria-label="Sample curl command"
            sx={{
              m: 0,
              p: 1.5,
              flex: 1,
              borderRadius: 1,
              bgcolor: 'action.hover',
              fontSize: 13,
              whiteSpace: 'pre-wrap',
              wordBreak: 'break-all',
            }}
          >
            {curl}
          </Box>
          <CopyButton value={curl} label="Copy curl command" />
        </Stack>
      </Stack>
    </Paper>
  )
}
