// /sources/new/source-configuration: what the source is called and its project and environment
// (all optional), where it goes (team, region) and the call that creates it. The route has
// already sent away a draft missing earlier steps.
import {
  Alert,
  Button,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import type { Team } from '../../../shared/entities.ts'
import {
  REGIONS,
  SELECTABLE_REGIONS,
  regionSchema,
  sourceNameSchema,
} from '../../../shared/sources.ts'
import { ButtonLink, TextLink } from '../../components/links.tsx'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import { PageTitle } from '../../components/page-title.tsx'
import { useTeams } from '../../db/tab/hooks.ts'
import { DatabaseDetails } from './database-details.tsx'
import { parseTags, SourceTagFields } from './source-tag-fields.tsx'
import { finalConnectionString, sourceDraft } from './draft.ts'
import { useCreateSource, type CreateState } from './use-create-source.ts'
import { useSourceDraft } from './use-source-draft.ts'
import { WizardBreadcrumbs } from './wizard-breadcrumbs.tsx'
import { backFromConfiguration, wizardSteps } from './wizard-redirects.ts'

const route = getRouteApi('/_dashboard/sources/new/source-configuration')

/** The draft's team if it is still one of the user's, else the first. */
function chosenTeam(teams: Team[], draftTeam: string | null): string | null {
  if (draftTeam && teams.some((team) => team.id === draftTeam)) return draftTeam
  return teams[0]?.id ?? null
}

function Outcome({ state }: { state: CreateState }) {
  const link = (sourceId: string, teamId: string, text: string) => (
    <TextLink to="/teams/$teamId/$sourceId" params={{ teamId, sourceId }}>
      {text}
    </TextLink>
  )
  switch (state.kind) {
    case 'failed':
      return (
        <Typography color="error" role="alert">
          Failed to add source: {state.message}
        </Typography>
      )
    case 'registered':
      return (
        <Alert severity="warning">
          This source is already registered in this region.{' '}
          {link(state.sourceId, state.teamId, 'Go to the registered source')}
        </Alert>
      )
    case 'unsynced':
      return (
        <Alert severity="info">
          {state.message}{' '}
          {link(state.sourceId, state.teamId, 'Go to the source')}
        </Alert>
      )
    default:
      return null
  }
}

export function SourceConfigurationPage() {
  const search = route.useSearch()
  const navigate = useNavigate()
  const draft = useSourceDraft()
  const teams = useTeams()
  const { state, create } = useCreateSource()
  const [touched, setTouched] = useState(false)

  const teamId = teams ? chosenTeam(teams, draft.teamId) : null
  const region = draft.region ?? SELECTABLE_REGIONS[0]
  const databaseUrl = finalConnectionString(draft)
  const creating = state.kind === 'creating'
  const name = sourceNameSchema.safeParse(draft.name ?? '')
  const nameError = name.success ? undefined : name.error.issues[0]?.message
  const tagValues = {
    project: draft.sourceProject ?? '',
    environment: draft.sourceEnvironment ?? '',
  }
  const tags = parseTags(tagValues).data
  const valid = name.success && tags !== null

  const onCreate = async () => {
    setTouched(true)
    if (!teamId || !databaseUrl || !name.success || !tags) return
    const created = await create(
      {
        name: name.data,
        ...tags,
        region,
        team_id: teamId,
        database_url: databaseUrl,
      },
      search.skip_validation === true,
    )
    if (!created) return
    await navigate({
      to: '/teams/$teamId/$sourceId',
      params: { teamId, sourceId: created },
    })
    sourceDraft.clear()
  }

  return (
    <Stack spacing={3} sx={{ maxWidth: 720 }}>
      <div>
        <WizardBreadcrumbs steps={wizardSteps(draft.type, 'configuration')} />
        <PageTitle>Source Configuration</PageTitle>
      </div>
      <DatabaseDetails draft={draft} />
      <TextField
        label="Name"
        value={draft.name ?? ''}
        onChange={(e) => sourceDraft.update({ name: e.target.value })}
        error={Boolean(nameError)}
        helperText={
          nameError ?? 'Optional. Without a name the source is shown by its id.'
        }
        disabled={creating}
      />
      <SourceTagFields
        values={tagValues}
        onChange={(change) =>
          sourceDraft.update({
            ...(change.project !== undefined && {
              sourceProject: change.project,
            }),
            ...(change.environment !== undefined && {
              sourceEnvironment: change.environment,
            }),
          })
        }
        disabled={creating}
      />
      <TextField
        select
        label="Team"
        value={teamId ?? ''}
        onChange={(e) => sourceDraft.update({ teamId: e.target.value })}
        error={touched && !teamId}
        helperText={touched && !teamId ? 'A team is required' : undefined}
        disabled={creating}
      >
        {(teams ?? []).map((team) => (
          <MenuItem key={team.id} value={team.id}>
            {team.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        label="Region"
        value={region}
        onChange={(e) => {
          const picked = regionSchema.safeParse(e.target.value)
          if (picked.success) sourceDraft.update({ region: picked.data })
        }}
        disabled={creating}
      >
        {REGIONS.map((option) => (
          <MenuItem
            key={option.id}
            value={option.id}
            disabled={!option.selectable}
          >
            {option.label}
            {option.selectable ? '' : ' (not available yet)'}
          </MenuItem>
        ))}
      </TextField>
      <Stack direction="row" spacing={2}>
        <ButtonLink
          {...backFromConfiguration(draft)}
          variant="outlined"
          disabled={creating}
        >
          Back
        </ButtonLink>
        <NeedsNetwork>
          <Button
            variant="contained"
            onClick={() => void onCreate()}
            disabled={creating || !teamId || !databaseUrl || !valid}
          >
            {creating ? 'Creating...' : 'Create source'}
          </Button>
        </NeedsNetwork>
      </Stack>
      <Outcome state={state} />
    </Stack>
  )
}
