// /sources: every team's sources, filtered by project and environment and grouped by project,
// or a welcome when there are none at all.
import { Box, Card, CardContent, Stack, Typography } from '@mui/material'
import { getRouteApi } from '@tanstack/react-router'
import { ButtonLink } from '../../components/links.tsx'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import { PageTitle } from '../../components/page-title.tsx'
import { useSourcesByTeam } from '../../db/tab/hooks.ts'
import type { Source } from '../../../shared/entities.ts'
import { SourceFilters } from './source-filters.tsx'
import {
  filterSources,
  isFiltered,
  type SourceFilter,
} from './source-projects.ts'
import { NO_MATCH_TEXT, TeamSourceList } from './team-source-list.tsx'

const route = getRouteApi('/_dashboard/sources/')

function TeamSources(props: {
  name: string
  sources: Source[]
  filter: SourceFilter
}) {
  return (
    <Box component="section" aria-label={props.name}>
      <Typography variant="h5" component="h2" sx={{ mb: 2 }}>
        {props.name}
      </Typography>
      <TeamSourceList sources={props.sources} filter={props.filter} />
    </Box>
  )
}

export function SourcesPage() {
  const teams = useSourcesByTeam()
  const filter = route.useSearch()
  const navigate = route.useNavigate()
  if (!teams) return <PageTitle>All Sources</PageTitle>
  const all = teams.flatMap((entry) => entry.sources)
  // While filtering, a team with nothing that matches is left out, not listed as empty.
  const shown = isFiltered(filter)
    ? teams.filter((entry) => filterSources(entry.sources, filter).length > 0)
    : teams
  return (
    <>
      <PageTitle>All Sources</PageTitle>
      {all.length > 0 ? (
        <>
          <SourceFilters
            sources={all}
            filter={filter}
            onChange={(change) =>
              void navigate({
                search: (prev) => ({ ...prev, ...change }),
                replace: true,
              })
            }
          />
          <Stack spacing={4}>
            {shown.map(({ team, sources }) => (
              <TeamSources
                key={team.id}
                name={team.name}
                sources={sources}
                filter={filter}
              />
            ))}
            {shown.length === 0 && (
              <Typography color="text.secondary">{NO_MATCH_TEXT}</Typography>
            )}
          </Stack>
        </>
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
