// /setup/{formId} (public): whoever holds a team's setup link adds their database as a
// source of that team, once. The URL is checked first with the shared validation routine and
// panel, and submitted only when the database is ready; then 'Source Added'. A form deleted,
// used or expired says so instead of showing the form.
import {
  Alert,
  Box,
  Button,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material'
import { getRouteApi } from '@tanstack/react-router'
import { useEffect, useState, type FormEvent } from 'react'
import {
  SETUP_FORM_REGIONS,
  SETUP_FORM_UNUSABLE_MESSAGES,
  setupFormUnusable,
  type PublicSetupForm,
} from '../../../shared/setup-forms.ts'
import type { Region } from '../../../shared/sources.ts'
import { isReady } from '../../../shared/validation.ts'
import { useDocumentTitle } from '../../components/document-title.ts'
import { Logo } from '../../components/logo.tsx'
import { PublicPage } from '../../components/public-page.tsx'
import { useDatabaseValidation } from '../validation/use-database-validation.ts'
import { ValidationResultsPanel } from '../validation/validation-results-panel.tsx'
import {
  LOAD_FAILED,
  loadSetupForm,
  submitSetupForm,
} from './setup-form-api.ts'
import { SourceAdded } from './source-added.tsx'

const route = getRouteApi('/setup/$formId')

/** The setup form's default region. */
const DEFAULT_REGION: Region = 'eu-west-1'

type Loaded =
  | { kind: 'loading' }
  | { kind: 'failed' }
  | { kind: 'loaded'; form: PublicSetupForm }

function useSetupFormLoad(formId: string): Loaded {
  const [loaded, setLoaded] = useState<{ formId: string; state: Loaded }>()
  useEffect(() => {
    let current = true
    void loadSetupForm(formId).then((form) => {
      if (current)
        setLoaded({
          formId,
          state: form ? { kind: 'loaded', form } : { kind: 'failed' },
        })
    })
    return () => {
      current = false
    }
  }, [formId])
  return loaded?.formId === formId ? loaded.state : { kind: 'loading' }
}

function SetupForm(props: {
  form: PublicSetupForm
  onAdded: (added: { id: string; secret: string }) => void
}) {
  const { form } = props
  const [region, setRegion] = useState<Region>(form.region ?? DEFAULT_REGION)
  const [url, setUrl] = useState('')
  // The URL the shown result is about, so editing the field does not rename the fix steps.
  const [validatedUrl, setValidatedUrl] = useState('')
  const [connecting, setConnecting] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const validation = useDatabaseValidation()

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!url.trim()) {
      setError('A database URL is required')
      return
    }
    setError(null)
    setValidatedUrl(url)
    const outcome = await validation.validate(url)
    if (!outcome || outcome.error || !isReady(outcome.result)) return
    setConnecting(true)
    const answer = await submitSetupForm(form.id, {
      database_url: url.trim(),
      region,
    })
    setConnecting(false)
    if (answer.ok)
      props.onAdded({ id: answer.id, secret: answer.source_secret })
    else setError(answer.message)
  }

  const busy = validation.isValidating || connecting
  return (
    <>
      <Stack
        component="form"
        spacing={2}
        noValidate
        onSubmit={(e) => void submit(e)}
      >
        <TextField
          select
          label="Region"
          value={region}
          onChange={(e) => setRegion(e.target.value as Region)}
          disabled={form.region !== null}
          helperText={
            form.region ? 'The team chose this region for the source.' : null
          }
        >
          {SETUP_FORM_REGIONS.map((r) => (
            <MenuItem key={r.id} value={r.id}>
              {r.label}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          id="source-url"
          label="Source URL"
          name="database_url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="postgresql://user:password@host:5432/database?sslmode=require"
          autoComplete="off"
          spellCheck={false}
          required
          fullWidth
          helperText="Note: the password is encrypted for storage."
        />
        <Button type="submit" variant="contained" disabled={busy}>
          {busy ? 'Connecting...' : 'Connect Source'}
        </Button>
      </Stack>
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      {/* A failed call is about the request, not the database: its message, not the panel. */}
      {validation.error && <Alert severity="error">{validation.error}</Alert>}
      {validation.result && !validation.error && (
        <ValidationResultsPanel
          result={validation.result}
          databaseUrl={validatedUrl}
        />
      )}
    </>
  )
}

function Body({ formId }: { formId: string }) {
  const loaded = useSetupFormLoad(formId)
  const [added, setAdded] = useState<{ id: string; secret: string } | null>(
    null,
  )
  if (added) return <SourceAdded id={added.id} secret={added.secret} />
  if (loaded.kind === 'loading')
    return <Typography role="status">Loading...</Typography>
  if (loaded.kind === 'failed')
    return <Alert severity="error">{LOAD_FAILED}</Alert>
  const unusable = setupFormUnusable(loaded.form)
  if (unusable)
    return (
      <Alert severity="warning">{SETUP_FORM_UNUSABLE_MESSAGES[unusable]}</Alert>
    )
  return <SetupForm form={loaded.form} onAdded={setAdded} />
}

export function SetupPage() {
  const { formId } = route.useParams()
  useDocumentTitle('Add a source')
  return (
    <PublicPage>
      <Stack spacing={1} sx={{ alignItems: 'center', textAlign: 'center' }}>
        <Box>
          <Logo size={40} />
        </Box>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
          Add a source
        </Typography>
        <Typography color="text.secondary">
          Connect your Postgres database to the sync engine. It is added as a
          source of the team that sent you this link.
        </Typography>
      </Stack>
      <Body formId={formId} />
    </PublicPage>
  )
}
