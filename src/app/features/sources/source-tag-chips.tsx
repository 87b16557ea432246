// A source's project and environment as chips on its card; nothing when it has neither.
import { Box, Chip, Stack } from '@mui/material'
import type { Source } from '../../../shared/entities.ts'

function TagChip({ label, value }: { label: string; value: string }) {
  return (
    <Chip
      size="small"
      variant="outlined"
      // A label may be 64 characters with no space: the chip wraps rather than overflows.
      sx={{ maxWidth: '100%', height: 'auto', py: 0.25 }}
      label={
        <Box
          component="span"
          sx={{ whiteSpace: 'normal', wordBreak: 'break-all' }}
        >
          <Box component="span" sx={{ color: 'text.secondary' }}>
            {label}:
          </Box>{' '}
          {value}
        </Box>
      }
    />
  )
}

export function SourceTagChips({
  source,
}: {
  source: Pick<Source, 'project' | 'environment'>
}) {
  if (!source.project && !source.environment) return null
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
      {source.project && <TagChip label="Project" value={source.project} />}
      {source.environment && (
        <TagChip label="Environment" value={source.environment} />
      )}
    </Stack>
  )
}
