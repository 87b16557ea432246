// /sources/new/: the wizard's first step. A pasted connection string must pass
// the server's readiness check (unless skip_validation) before Next; editing it after that
// asks for the check again.
import { Button, Stack, TextField, Typography } from '@mui/material'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { isReady } from '../../../shared/validation.ts'
import { PageTitle } from '../../components/page-title.tsx'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import { useDatabaseValidation } from '../validation/use-database-validation.ts'
import { sourceDraft, withConnectionString } from './draft.ts'
import { ProviderTiles } from './provider-tiles.tsx'
import { useSourceDraft } from './use-source-draft.ts'
import { WizardBreadcrumbs } from './wizard-breadcrumbs.tsx'
import { WizardValidationOutcome } from './wizard-validation-outcome.tsx'

const route = getRouteApi('/_dashboard/sources/new/')

export function NewSourcePage() {
  const search = route.useSearch()
  const navigate = useNavigate()
  const draft = useSourceDraft()
  // Back from configuration finds the string it left with (memory only, see draft.ts).
  const [value, setValue] = useState(() =>
    draft.type === 'connection_string' ? (draft.connectionString ?? '') : '',
  )
  // The string the shown result is about.
  const [validated, setValidated] = useState<string | null>(null)
  const { result, isValidating, error, validate, reset } =
    useDatabaseValidation()

  const trimmed = value.trim()
  const skip = search.skip_validation === true
  const passed =
    skip ||
    (validated === trimmed && result !== null && !error && isReady(result))

  const onChange = (next: string) => {
    setValue(next)
    if (validated !== null) {
      reset()
      setValidated(null)
    }
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (!trimmed || isValidating) return
    if (!passed) {
      setValidated(trimmed)
      void validate(trimmed)
      return
    }
    sourceDraft.update({
      ...withConnectionString(sourceDraft.get(), trimmed),
      teamId: search.team_id ?? sourceDraft.get().teamId,
    })
    void navigate({
      to: '/sources/new/source-configuration',
      search: {
        team_id: search.team_id,
        skip_validation: search.skip_validation,
      },
    })
  }

  return (
    <Stack spacing={3} sx={{ maxWidth: 720 }}>
      <div>
        <WizardBreadcrumbs steps={[]} />
        <PageTitle>Connect a Postgres database</PageTitle>
      </div>
      <Stack component="form" spacing={2} noValidate onSubmit={onSubmit}>
        <TextField
          label="Connection string"
          name="database_url"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder="postgresql://user:password@host:5432/database?sslmode=require"
          helperText="A direct connection (not a pooler) as a user with the REPLICATION attribute."
          autoComplete="off"
          spellCheck={false}
          fullWidth
        />
        <div>
          <NeedsNetwork>
            <Button
              type="submit"
              variant="contained"
              disabled={!trimmed || isValidating}
            >
              {isValidating
                ? 'Validating Connection String...'
                : passed
                  ? 'Next'
                  : 'Validate Connection String'}
            </Button>
          </NeedsNetwork>
        </div>
      </Stack>
      <WizardValidationOutcome
        current={validated !== null}
        error={error}
        result={result}
        databaseUrl={validated ?? ''}
      />
      <Stack spacing={2}>
        <Typography color="text.secondary">
          Or connect a database hosted by a provider:
        </Typography>
        <ProviderTiles />
      </Stack>
    </Stack>
  )
}
