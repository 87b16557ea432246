// /sources/new/supabase/{orgId}: the organization's projects and the database credentials. The
// connection string is built here and checked with the shared routine and panel; Continue once it
// is ready. The password lives in this page and the draft's memory-only connection string, never in
// storage.
import { Stack, TextField } from '@mui/material'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { isReady } from '../../../shared/validation.ts'
import { ButtonLink } from '../../components/links.tsx'
import { sourceDraft } from '../sources/draft.ts'
import { useSourceDraft } from '../sources/use-source-draft.ts'
import { WizardValidationOutcome } from '../sources/wizard-validation-outcome.tsx'
import { wizardSteps } from '../sources/wizard-redirects.ts'
import { useDatabaseValidation } from '../validation/use-database-validation.ts'
import { providerLists, type SupabaseProject } from './provider-api.ts'
import { ProviderGate, useProviderGate } from './provider-gate.tsx'
import { ProviderListView } from './provider-list-view.tsx'
import { ProviderPage } from './provider-page.tsx'
import { byName } from './sorting.ts'
import {
  credentialsComplete,
  DEFAULT_CREDENTIALS,
  supabaseConnectionString,
} from './supabase-connection-string.ts'
import { useProviderList } from './use-provider-list.ts'
import { ValidateActions } from './validate-actions.tsx'

const route = getRouteApi('/_dashboard/sources/new/supabase/$orgId')
const wizard = getRouteApi('/_dashboard/sources/new')

type Fields = typeof DEFAULT_CREDENTIALS

export function SupabaseProjectPage() {
  const { orgId } = route.useParams()
  const { team_id } = wizard.useSearch()
  const navigate = useNavigate()
  const draft = useSourceDraft()
  const gate = useProviderGate('supabase')
  const projects = useProviderList(
    gate.mayRead ? providerLists.supabaseProjects(orgId) : null,
  )
  const [project, setProject] = useState<SupabaseProject | null>(null)
  const projectId = project?.id ?? draft.project?.id ?? null
  const [fields, setFields] = useState<Fields>(DEFAULT_CREDENTIALS)
  // The connection string the shown result is about.
  const [validated, setValidated] = useState<string | null>(null)
  const { result, isValidating, error, validate, reset } =
    useDatabaseValidation()

  const credentials = { projectRef: projectId ?? '', ...fields }
  const complete = credentialsComplete(credentials)
  const template =
    gate.state.kind === 'ready'
      ? gate.state.supabase_db_host_template
      : undefined
  const url = complete ? supabaseConnectionString(credentials, template) : null
  const passed =
    url !== null &&
    validated === url &&
    result !== null &&
    !error &&
    isReady(result)

  // Changing a field (or the project) clears a prior result: it spoke of another string.
  const change = (next: Partial<Fields>) => {
    setFields((before) => ({ ...before, ...next }))
    if (validated !== null) {
      reset()
      setValidated(null)
    }
  }

  const onValidate = () => {
    if (!url || isValidating) return
    setValidated(url)
    void validate(url)
  }

  const onContinue = () => {
    if (!passed || !url) return
    const name =
      project?.name ??
      (draft.project?.id === projectId ? draft.project.name : '')
    sourceDraft.update({
      project: { id: projectId ?? '', name },
      connectionString: url,
    })
    void navigate({
      to: '/sources/new/source-configuration',
      search: { team_id },
    })
  }

  return (
    <ProviderPage
      steps={wizardSteps('supabase', 'project')}
      title={`Projects of ${draft.organization?.name ?? 'the organization'}`}
    >
      <ProviderGate
        gate={gate}
        lists={[projects.state]}
        onConnected={projects.reload}
      >
        <Stack spacing={3}>
          <ProviderListView
            state={projects.state}
            order={byName}
            label="Project"
            empty="No projects found for this organization."
            idOf={(p) => p.id}
            nameOf={(p) => p.name}
            detailOf={(p) => p.region}
            value={projectId}
            onChange={(p) => {
              setProject(p)
              change({})
            }}
            disabled={isValidating}
          />
          <TextField
            label="Database user"
            value={fields.user}
            onChange={(e) => change({ user: e.target.value })}
            required
            autoComplete="off"
            disabled={isValidating}
          />
          <TextField
            label="Database name"
            value={fields.database}
            onChange={(e) => change({ database: e.target.value })}
            required
            autoComplete="off"
            disabled={isValidating}
          />
          <TextField
            label="Database password"
            type="password"
            value={fields.password}
            onChange={(e) => change({ password: e.target.value })}
            required
            autoComplete="off"
            helperText="The password you set for the project's database; Supabase cannot tell it to Sluice."
            disabled={isValidating}
          />
        </Stack>
      </ProviderGate>
      <WizardValidationOutcome
        current={validated !== null}
        error={error}
        result={result}
        databaseUrl={validated ?? ''}
      />
      <ValidateActions
        back={
          <ButtonLink
            to="/sources/new/supabase"
            search={{ team_id }}
            variant="outlined"
          >
            Back
          </ButtonLink>
        }
        validateLabel={isValidating ? 'Validating...' : 'Validate Connection'}
        canValidate={complete && !isValidating}
        onValidate={onValidate}
        canContinue={passed}
        onContinue={onContinue}
      />
    </ProviderPage>
  )
}
