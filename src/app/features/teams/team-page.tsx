// /teams/{teamId}: the team's sources (filtered and grouped by project), setup links, alerts,
// API tokens and members, or 'Team not found'.
import { Stack, TableCell, Typography } from '@mui/material'
import { getRouteApi } from '@tanstack/react-router'
import { SUPPORT_EMAIL } from '../../../shared/constants.ts'
import { DataTable } from '../../components/data-table.tsx'
import { ButtonLink } from '../../components/links.tsx'
import { PageTitle } from '../../components/page-title.tsx'
import { SectionHeading } from '../../components/section-heading.tsx'
import { useTeam, useTeamSources, useTeamUsers } from '../../db/tab/hooks.ts'
import { SourceFilters } from '../sources/source-filters.tsx'
import { TeamSourceList } from '../sources/team-source-list.tsx'
import { AlertsSection } from './alerts-section.tsx'
import { ApiTokensSection } from './api-tokens-section.tsx'
import { SetupLinksSection } from './setup-links-section.tsx'

const route = getRouteApi('/_dashboard/teams/$teamId/')

export function TeamPage() {
  const { teamId } = route.useParams()
  const filter = route.useSearch()
  const navigate = route.useNavigate()
  const team = useTeam(teamId)
  const sources = useTeamSources(teamId)
  const users = useTeamUsers(teamId)
  if (team === undefined) return null
  if (team === null) return <PageTitle>Team not found</PageTitle>
  return (
    <Stack spacing={4}>
      <PageTitle>{team.name}</PageTitle>
      <section aria-label="Sources">
        <SectionHeading title="Sources">
          {/* The wizard keeps team_id through its steps and picks this team on its last. */}
          <ButtonLink
            to="/sources/new"
            search={{ team_id: teamId }}
            variant="outlined"
          >
            Add source
          </ButtonLink>
        </SectionHeading>
        {sources && (
          <>
            <SourceFilters
              sources={sources}
              filter={filter}
              onChange={(change) =>
                void navigate({
                  search: (prev) => ({ ...prev, ...change }),
                  replace: true,
                })
              }
            />
            <TeamSourceList sources={sources} filter={filter} />
          </>
        )}
      </section>
      <SetupLinksSection teamId={teamId} />
      <AlertsSection teamId={teamId} />
      <ApiTokensSection teamId={teamId} />
      <section aria-label="Users">
        <Typography variant="h5" component="h2" sx={{ mb: 2 }}>
          Users
        </Typography>
        <DataTable
          columns={['Name', 'Email']}
          rows={users ?? []}
          rowKey={(user) => user.id}
          sx={{ maxWidth: 720 }}
        >
          {(user) => (
            <>
              <TableCell>{user.name || '-'}</TableCell>
              <TableCell>{user.email}</TableCell>
            </>
          )}
        </DataTable>
        <Typography color="text.secondary" sx={{ mt: 2 }}>
          To add a user to this team, contact support at {SUPPORT_EMAIL}.
        </Typography>
      </section>
    </Stack>
  )
}
