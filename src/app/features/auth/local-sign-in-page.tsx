// Local mode only: sign in with a name and email on a machine with no OAuth provider set up.
import {
  Alert,
  Button,
  Card,
  CardContent,
  Chip,
  Container,
  Stack,
  TextField,
  Typography,
} from '@mui/material'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { z } from 'zod'
import { authUserSchema, localLoginSchema } from '../../../shared/entities.ts'
import { useDocumentTitle } from '../../components/document-title.ts'
import { Logo } from '../../components/logo.tsx'
import { api } from '../../lib/api.ts'
import { LOCAL_LOGIN_PATH } from '../../../shared/api-routes.ts'

const route = getRouteApi('/sign-in/local')

const signedInSchema = authUserSchema.extend({
  first_sign_in: z.boolean().optional(),
})

export function LocalSignInPage() {
  const navigate = useNavigate()
  const { claim } = route.useSearch()
  useDocumentTitle('Sign in')
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    const parsed = localLoginSchema.safeParse({ name, email })
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the form')
      return
    }
    setBusy(true)
    setError(null)
    try {
      const user = await api(LOCAL_LOGIN_PATH, signedInSchema, {
        method: 'POST',
        body: parsed.data,
      })
      // A new user is asked what they are building, once, and a claim waits for that (the
      // OAuth callback does the same).
      if (user.first_sign_in)
        await navigate({ to: '/welcome', search: { claim } })
      else if (claim) await navigate({ to: '/claim', search: { uuid: claim } })
      else await navigate({ to: '/' })
    } catch (e) {
      setError((e as Error).message)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Container maxWidth="xs" sx={{ my: 'auto', py: 6 }}>
      <Card
        component="form"
        // submit catches its own failures and shows them.
        onSubmit={(event) => void submit(event)}
        noValidate
      >
        <CardContent>
          <Stack spacing={2}>
            <Logo />
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Typography variant="h5" component="h1">
                Sign in
              </Typography>
              <Chip label="Local mode" color="warning" size="small" />
            </Stack>
            <Alert severity="warning">
              Local mode: no sign-in provider is configured on this server, so
              anyone who can reach it can sign in with any name and email.
              Configure GitHub or Google sign-in before sharing it.
            </Alert>
            <TextField
              label="Name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              autoComplete="name"
              required
            />
            <TextField
              label="Email"
              type="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              autoComplete="email"
              required
            />
            {error && <Alert severity="error">{error}</Alert>}
            <Button type="submit" variant="contained" disabled={busy}>
              {busy ? 'Signing in...' : 'Sign in'}
            </Button>
          </Stack>
        </CardContent>
      </Card>
    </Container>
  )
}
