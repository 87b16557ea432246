// The signed-out front door: what Sluice is, and the two ways to sign in.
import { Alert, Box, Button, Container, Stack, Typography } from '@mui/material'
import { getRouteApi } from '@tanstack/react-router'
import { useDocumentTitle } from '../../components/document-title.ts'
import { Logo } from '../../components/logo.tsx'
import { useLocalSignIn } from './use-local-sign-in.ts'
import { loginPath } from '../../../shared/api-routes.ts'

const route = getRouteApi('/')

const signInErrors: Record<string, string> = {
  access_denied: 'Sign-in was cancelled.',
  provider_failed: 'Sign-in failed at the provider. Please try again.',
}

export function LandingPage() {
  const { sign_in_error: error } = route.useSearch()
  useDocumentTitle('Welcome')
  const local = useLocalSignIn()
  return (
    <Container maxWidth="sm" sx={{ my: 'auto', py: 8 }}>
      <Stack spacing={3} sx={{ alignItems: 'center', textAlign: 'center' }}>
        <Logo size={48} />
        <Typography variant="h3" component="h1" sx={{ fontWeight: 700 }}>
          Welcome to Sluice
        </Typography>
        <Typography variant="h6" component="p" color="text.secondary">
          Blazing fast sync of Postgres subsets into local apps. Scales to
          millions of users. Works with any Postgres stack.
        </Typography>
        {error && (
          <Alert severity="error" sx={{ width: '100%' }}>
            {signInErrors[error] ?? 'Sign-in failed. Please try again.'}
          </Alert>
        )}
        <Box
          sx={{
            display: 'flex',
            gap: 2,
            flexWrap: 'wrap',
            justifyContent: 'center',
          }}
        >
          <Button variant="contained" size="large" href={loginPath('github')}>
            Sign in with GitHub
          </Button>
          <Button variant="outlined" size="large" href={loginPath('google')}>
            Sign in with Google
          </Button>
        </Box>
        {local && (
          <Typography variant="body2" color="text.secondary">
            Local mode: this server signs in with a name and an email.
          </Typography>
        )}
      </Stack>
    </Container>
  )
}
