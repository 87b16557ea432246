// /sources/new/neon/databases: pick a database and a role, have the server validate the role's
// direct connection, Continue only after success. Choosing a database preselects
// the role named like its owner; a WAL level that is the only failure can be fixed from here.
import { Stack } from '@mui/material'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { isReady } from '../../../shared/validation.ts'
import { ButtonLink } from '../../components/links.tsx'
import { sourceDraft } from '../sources/draft.ts'
import { useSourceDraft } from '../sources/use-source-draft.ts'
import { WizardValidationOutcome } from '../sources/wizard-validation-outcome.tsx'
import { wizardSteps } from '../sources/wizard-redirects.ts'
import { useValidationRoutine } from '../validation/use-database-validation.ts'
import { EnableLogicalReplication } from './enable-logical-replication.tsx'
import { NeonChoiceField } from './neon-choice-field.tsx'
import { neonValidatePath, requestNeonValidation } from './neon-validation.ts'
import { providerLists } from './provider-api.ts'
import { ProviderGate, useProviderGate } from './provider-gate.tsx'
import { ProviderPage } from './provider-page.tsx'
import { byName } from './sorting.ts'
import { useProviderList } from './use-provider-list.ts'
import { ValidateActions } from './validate-actions.tsx'
import { onlyWalLevelFails } from './wal-only.ts'

const route = getRouteApi('/_dashboard/sources/new/neon/databases')
const wizard = getRouteApi('/_dashboard/sources/new')

export function NeonDatabasesPage() {
  const { projectId, branchId } = route.useSearch()
  const { team_id } = wizard.useSearch()
  const navigate = useNavigate()
  const draft = useSourceDraft()
  const gate = useProviderGate('neon')
  const databases = useProviderList(
    gate.mayRead ? providerLists.databases(projectId, branchId) : null,
  )
  const roles = useProviderList(
    gate.mayRead ? providerLists.roles(projectId, branchId) : null,
  )
  const [database, setDatabase] = useState<string | null>(draft.database)
  const [role, setRole] = useState<string | null>(draft.role)
  const validation = useValidationRoutine(requestNeonValidation)
  const { result, isValidating, error } = validation
  // The connection the shown result is about, and the URI the server answered with.
  const [validated, setValidated] = useState<string | null>(null)
  const [connectionUri, setConnectionUri] = useState<string | null>(null)

  const path =
    database && role
      ? neonValidatePath({ projectId, branchId, database, role })
      : null
  const current = validated !== null && validated === path
  const passed =
    current && result !== null && !error && isReady(result) && !!connectionUri
  const failed = current && result !== null && !passed

  const forget = () => {
    validation.reset()
    setValidated(null)
    setConnectionUri(null)
  }

  const onValidate = async () => {
    if (!path || isValidating) return
    setValidated(path)
    setConnectionUri(null)
    const outcome = await validation.validate(path)
    if (outcome) setConnectionUri(outcome.connectionUri)
  }

  const onContinue = () => {
    if (!passed) return
    sourceDraft.update({ database, role, connectionString: connectionUri })
    void navigate({
      to: '/sources/new/source-configuration',
      search: { team_id },
    })
  }

  return (
    <ProviderPage
      steps={wizardSteps('neon', 'database')}
      title={`Databases of ${draft.branch?.name ?? 'the branch'}`}
    >
      <ProviderGate
        gate={gate}
        lists={[databases.state, roles.state]}
        onConnected={() => {
          databases.reload()
          roles.reload()
        }}
      >
        <Stack spacing={3}>
          <NeonChoiceField
            label="Database"
            state={databases.state}
            order={byName}
            empty="No databases found for this branch."
            value={database}
            disabled={isValidating}
            onChange={(picked) => {
              setDatabase(picked.name)
              // The role named like the database's owner is preselected, unless one is
              // chosen already.
              if (!role && roles.state.kind === 'list') {
                const owner = roles.state.items.find(
                  (r) => r.name === picked.owner_name,
                )
                if (owner) setRole(owner.name)
              }
              forget()
            }}
          />
          <NeonChoiceField
            label="Role"
            state={roles.state}
            order={byName}
            empty="No roles found for this branch."
            value={role}
            disabled={isValidating}
            onChange={(picked) => {
              setRole(picked.name)
              forget()
            }}
          />
        </Stack>
      </ProviderGate>
      <WizardValidationOutcome
        current={current}
        error={error}
        result={result}
        databaseUrl={connectionUri ?? ''}
      />
      {result && !error && current && onlyWalLevelFails(result) && (
        <EnableLogicalReplication
          projectId={projectId}
          onEnabled={() => void onValidate()}
        />
      )}
      <ValidateActions
        back={
          <ButtonLink
            to="/sources/new/neon/branches"
            search={{ team_id, projectId }}
            variant="outlined"
          >
            Back
          </ButtonLink>
        }
        validateLabel={
          isValidating
            ? 'Validating...'
            : failed
              ? 'Retry Validation'
              : 'Validate Connection'
        }
        canValidate={!!path && !isValidating}
        onValidate={() => void onValidate()}
        canContinue={passed}
        onContinue={onContinue}
      />
    </ProviderPage>
  )
}
