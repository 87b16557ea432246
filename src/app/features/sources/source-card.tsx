// A source at a glance: its project and environment, ids to copy, the secret masked, state,
// region, the masked connection string and dates. The name leads to the source's page.
import {
  Box,
  Card,
  CardContent,
  Stack,
  Typography,
  type SxProps,
} from '@mui/material'
import type { ReactNode } from 'react'
import type { Source } from '../../../shared/entities.ts'
import { maskConnectionUrl, maskSecret } from '../../../shared/masking.ts'
import { sourceDisplay, sourceLabel } from '../../../shared/source-display.ts'
import { regionLabel } from '../../../shared/sources.ts'
import { TextLink } from '../../components/links.tsx'
import { CopyButton } from '../../components/copy-button.tsx'
import { formatDateTime } from './format.ts'
import { SourceTagChips } from './source-tag-chips.tsx'
import { StateBadge } from './state-badge.tsx'

const mono: SxProps = { fontFamily: 'monospace', wordBreak: 'break-all' }

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: '140px 1fr',
        alignItems: 'center',
        columnGap: 1,
      }}
    >
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Box
        component="dd"
        sx={{ m: 0, display: 'flex', alignItems: 'center', minWidth: 0 }}
      >
        {children}
      </Box>
    </Box>
  )
}

export function SourceCard({ source }: { source: Source }) {
  const display = sourceDisplay(source)
  const title = sourceLabel(source)
  return (
    <Card variant="outlined" component="article" aria-label={title}>
      <CardContent>
        <Stack spacing={1.5}>
          <TextLink
            to="/teams/$teamId/$sourceId"
            params={{ teamId: source.team_id, sourceId: source.id }}
            variant="h6"
            underline="hover"
            sx={{ wordBreak: 'break-all' }}
          >
            {title}
          </TextLink>
          <SourceTagChips source={source} />
          <Stack component="dl" spacing={0.5} sx={{ m: 0 }}>
            <Field label="Source Id">
              <Typography variant="body2" sx={mono}>
                {source.id}
              </Typography>
              <CopyButton value={source.id} label="Copy Source Id" />
            </Field>
            <Field label="Source Secret">
              <Typography variant="body2" sx={mono}>
                {maskSecret(source.source_secret)}
              </Typography>
              {/* Blank while the card shows the last visit's rows (db/tab/last-screen.ts). */}
              {source.source_secret && (
                <CopyButton
                  value={source.source_secret}
                  label="Copy Source Secret"
                />
              )}
            </Field>
            <Field label="State">
              <StateBadge state={display.state} color={display.color} />
            </Field>
            <Field label="Region">
              <Typography variant="body2">
                {regionLabel(source.region)}
              </Typography>
            </Field>
            <Field label="Connection String">
              <Typography variant="body2" sx={mono}>
                {maskConnectionUrl(source.connection_url)}
              </Typography>
            </Field>
            <Field label="Added on">
              <Typography variant="body2">
                {formatDateTime(source.created_at)}
              </Typography>
            </Field>
            <Field label="Updated on">
              <Typography variant="body2">
                {formatDateTime(source.updated_at)}
              </Typography>
            </Field>
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  )
}
