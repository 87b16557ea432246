// /welcome: the onboarding intent form. New users land here once, after their
// first sign-in (the sign-in page and the OAuth callback send them); /preferences links back.
// Skip goes to / without sending anything; Next sends the answer, then goes to /. A user who
// signed in from a claim page (`?claim=`) goes on to that claim instead of /.
import {
  Alert,
  Button,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material'
import { getRouteApi, useNavigate, useRouter } from '@tanstack/react-router'
import { useEffect, useState, type FormEvent } from 'react'
import {
  fieldErrorsOf,
  ONBOARDING_INTENT_PATH,
  onboardingIntentSchema,
  type OnboardingField,
  type OnboardingIntent,
  zodErrorBody,
} from '../../../shared/onboarding.ts'
import { PageTitle } from '../../components/page-title.tsx'
import { setPersonProperties } from '../../lib/analytics.ts'
import { api, ApiError } from '../../lib/api.ts'

const SUBMIT_FAILED = 'An error occurred during submission'

const FIELDS: { name: OnboardingField; label: string; multiline?: boolean }[] =
  [
    { name: 'company', label: 'Company' },
    { name: 'website', label: 'Website' },
    {
      name: 'projectDescription',
      label: 'What are you building?',
      multiline: true,
    },
  ]

type Errors = Partial<Record<OnboardingField, string>>

const route = getRouteApi('/_dashboard/welcome')

export function WelcomePage() {
  const navigate = useNavigate()
  const router = useRouter()
  const { claim } = route.useSearch()
  const next = () =>
    claim
      ? navigate({ to: '/claim', search: { uuid: claim } })
      : navigate({ to: '/' })
  const [values, setValues] = useState<OnboardingIntent>({
    company: '',
    website: '',
    projectDescription: '',
  })
  const [errors, setErrors] = useState<Errors>({})
  const [failed, setFailed] = useState(false)
  const [busy, setBusy] = useState(false)

  // Where the user goes next, loaded while they type.
  useEffect(() => {
    router.preloadRoute({ to: '/sources' }).catch(() => {})
  }, [router])

  const edit = (field: OnboardingField, value: string) => {
    setValues((v) => ({ ...v, [field]: value }))
    // A field's error goes as soon as it is edited; the others stay.
    setErrors(({ [field]: _cleared, ...rest }) => rest)
    setFailed(false)
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    const parsed = onboardingIntentSchema.safeParse(values)
    if (!parsed.success) {
      // The same mapping as the server's answer: one ZodError body, read one way.
      setErrors(fieldErrorsOf(zodErrorBody(parsed.error)) ?? {})
      return
    }
    setBusy(true)
    setFailed(false)
    try {
      await api(ONBOARDING_INTENT_PATH, onboardingIntentSchema, {
        method: 'POST',
        body: parsed.data,
      })
      // Only runs when analytics is on (lib/analytics.ts drops it otherwise).
      setPersonProperties({
        company: parsed.data.company,
        website: parsed.data.website,
        building: parsed.data.projectDescription,
      })
      await next()
    } catch (error) {
      const fields =
        error instanceof ApiError && error.status === 400
          ? fieldErrorsOf(error.body)
          : null
      if (fields) setErrors(fields)
      else setFailed(true)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Stack spacing={3} sx={{ maxWidth: 560 }}>
      <PageTitle>Welcome to Sluice</PageTitle>
      <Typography color="text.secondary">
        Tell us a little about what you are building, so we can help you get
        there.
      </Typography>
      <Paper
        variant="outlined"
        component="form"
        noValidate
        // submit catches its own failures and shows them.
        onSubmit={(event) => void submit(event)}
        sx={{ p: 3 }}
      >
        <Stack spacing={2}>
          {FIELDS.map(({ name, label, multiline }) => (
            <TextField
              key={name}
              name={name}
              label={label}
              value={values[name]}
              onChange={(e) => edit(name, e.target.value)}
              error={Boolean(errors[name])}
              helperText={errors[name] ?? ' '}
              multiline={multiline}
              minRows={multiline ? 3 : undefined}
              required
            />
          ))}
          {failed && <Alert severity="error">{SUBMIT_FAILED}</Alert>}
          <Stack
            direction="row"
            spacing={1}
            sx={{ justifyContent: 'flex-end' }}
          >
            <Button onClick={() => void next()} disabled={busy}>
              Skip
            </Button>
            <Button type="submit" variant="contained" disabled={busy}>
              Next
            </Button>
          </Stack>
        </Stack>
      </Paper>
    </Stack>
  )
}
