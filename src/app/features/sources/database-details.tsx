// What the source will connect to, from the draft: host, port, database and user, or the
// provider's picks. Never the password.
import { Stack, Typography } from '@mui/material'
import { PanelSection } from '../../components/panel-section.tsx'
import { draftDetails, type SourceDraft } from './draft.ts'

export function DatabaseDetails({ draft }: { draft: SourceDraft }) {
  const rows = draftDetails(draft)
  return (
    <PanelSection title="Database details">
      <Stack component="dl" spacing={0.5} sx={{ m: 0 }}>
        {rows.map((row) => (
          <Stack key={row.label} direction="row" spacing={2}>
            <Typography
              component="dt"
              variant="body2"
              color="text.secondary"
              sx={{ width: 120, flexShrink: 0 }}
            >
              {row.label}
            </Typography>
            <Typography
              component="dd"
              variant="body2"
              sx={{ m: 0, fontFamily: 'monospace', wordBreak: 'break-all' }}
            >
              {row.value}
            </Typography>
          </Stack>
        ))}
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
        The database password is encrypted before it is stored, and is never
        shown again.
      </Typography>
    </PanelSection>
  )
}
