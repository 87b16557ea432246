// A team's sources as a grid of cards; the empty text when it has none.
import { Box, Typography } from '@mui/material'
import type { Source } from '../../../shared/entities.ts'
import { SourceCard } from './source-card.tsx'

export function SourceGrid({ sources }: { sources: Source[] }) {
  if (sources.length === 0)
    return (
      <Typography color="text.secondary">
        No sources found for this team.
      </Typography>
    )
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 2,
        gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 420px), 1fr))',
      }}
    >
      {sources.map((source) => (
        <SourceCard key={source.id} source={source} />
      ))}
    </Box>
  )
}
