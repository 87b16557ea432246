// The not-connected state: connect the provider account by OAuth when this server
// has it configured, or paste a personal token. Used by the wizard's pages and /preferences.
import {
  Alert,
  Button,
  Link,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material'
import { useLocation } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import {
  PROVIDER_NAMES,
  saveToken,
  type ProviderConnection,
} from './provider-api.ts'
import { failureText } from './failure-text.ts'
import { connectHref, currentReturnTo } from './provider-return.ts'
import { TOKEN_HELP } from './token-help.ts'

export function ProviderConnect({
  connection,
  onConnected,
  returnTo: fixedReturnTo,
}: {
  connection: ProviderConnection
  onConnected: () => void
  /** Where OAuth comes back to; by default this page (the server takes wizard pages only). */
  returnTo?: string
}) {
  const { provider } = connection
  const name = PROVIDER_NAMES[provider]
  const help = TOKEN_HELP[provider]
  const location = useLocation()
  const returnTo =
    fixedReturnTo ??
    currentReturnTo({
      pathname: location.pathname,
      search: location.searchStr,
    })
  const [token, setToken] = useState('')
  const [saving, setSaving] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (!token.trim() || saving) return
    setSaving(true)
    setError(null)
    saveToken(provider, token).then(
      () => {
        // The token is the server's now; the page keeps no copy of it.
        setToken('')
        setSaving(false)
        onConnected()
      },
      (failure: unknown) => {
        setSaving(false)
        setError(failureText(failure, `Failed to connect ${name}`))
      },
    )
  }

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={`Connect ${name}`}
      sx={{ p: 2 }}
    >
      <Stack spacing={2}>
        <Typography>
          Connect your {name} account to pick the database to sync.
        </Typography>
        {connection.oauth && (
          <div>
            {/* A full navigation: the server's login route redirects to the provider. */}
            <Button variant="contained" href={connectHref(provider, returnTo)}>
              Connect {name}
            </Button>
          </div>
        )}
        <Stack component="form" spacing={2} noValidate onSubmit={onSubmit}>
          <Typography color="text.secondary" variant="body2">
            {connection.oauth ? 'Or paste' : 'Paste'} a personal{' '}
            {help.label.replace(`${name} `, '')}. {help.where}{' '}
            <Link href={help.href} target="_blank" rel="noopener noreferrer">
              {help.href}
            </Link>
          </Typography>
          <TextField
            label={help.label}
            type="password"
            value={token}
            onChange={(e) => setToken(e.target.value)}
            autoComplete="off"
            disabled={saving}
            fullWidth
          />
          <div>
            <NeedsNetwork>
              <Button
                type="submit"
                variant="outlined"
                disabled={!token.trim() || saving}
              >
                {saving ? 'Saving...' : 'Save token'}
              </Button>
            </NeedsNetwork>
          </div>
          {error && (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          )}
        </Stack>
      </Stack>
    </Paper>
  )
}
