// A team's sources as a grid of cards; the empty text when it has none.
import { Box, Card, CardContent, Chip, Stack, Typography } from '@mui/material'
import type { Source } from '../../../shared/entities.ts'
import { TextLink } from '../../components/links.tsx'

function SourceCard({ source }: { source: Source }) {
  return (
    <Card variant="outlined">
      <CardContent>
        <Stack spacing={1}>
          <TextLink
            to="/teams/$teamId"
            params={{ teamId: source.team_id }}
            variant="h6"
            underline="hover"
          >
            {source.name ?? source.id}
          </TextLink>
          <Stack direction="row" spacing={1}>
            <Chip size="small" label={source.state} />
            <Chip size="small" variant="outlined" label={source.region} />
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  )
}

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
        gridTemplateColumns: 'repeat(auto-fill, minmax(320px, 1fr))',
      }}
    >
      {sources.map((source) => (
        <SourceCard key={source.id} source={source} />
      ))}
    </Box>
  )
}
