// /sources: every team's sources, or a welcome when there are none at all.
import { Box, Card, CardContent, Stack, Typography } from '@mui/material'
import { ButtonLink } from '../../components/links.tsx'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import { PageTitle } from '../../components/page-title.tsx'
import { useSourcesByTeam } from '../../db/tab/hooks.ts'
import type { Source } from '../../../shared/entities.ts'
import { SourceGrid } from './source-grid.tsx'

function TeamSources({ name, sources }: { name: string; sources: Source[] }) {
  return (
    <Box component="section" aria-label={name}>
      <Typography variant="h5" component="h2" sx={{ mb: 2 }}>
        {name}
      </Typography>
      <SourceGrid sources={sources} />
    </Box>
  )
}

export function SourcesPage() {
  const teams = useSourcesByTeam()
  if (!teams) return <PageTitle>All Sources</PageTitle>
  const hasAny = teams.some((entry) => entry.sources.length > 0)
  return (
    <>
      <PageTitle>All Sources</PageTitle>
      {hasAny ? (
        <Stack spacing={4}>
          {teams.map(({ team, sources }) => (
            <TeamSources key={team.id} name={team.name} sources={sources} />
          ))}
        </Stack>
      ) : (
        <Card variant="outlined" sx={{ maxWidth: 640 }}>
          <CardContent>
            <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
              <Typography variant="h6" component="h2">
                Welcome to Sluice!
              </Typography>
              <Typography color="text.secondary">
                Connect a Postgres database to start syncing its data into your
                apps. You will need a connection string for a database with
                logical replication enabled.
              </Typography>
              <NeedsNetwork>
                <ButtonLink to="/sources/new" variant="contained">
                  Add Your First Postgres Database
                </ButtonLink>
              </NeedsNetwork>
            </Stack>
          </CardContent>
        </Card>
      )}
    </>
  )
}
