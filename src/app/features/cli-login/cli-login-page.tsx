// /cli-login/{loginId}: where `sluice auth login` sends its user. The page shows the code the
// terminal printed (so the user knows this login is theirs, not one a link from someone else
// started) and the machine's name, and approves it for one of the user's teams: the terminal
// then collects a new API token of that team.
import {
  Alert,
  Button,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material'
import { getRouteApi } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import type { CliLogin } from '../../../shared/cli-logins.ts'
import { PageTitle } from '../../components/page-title.tsx'
import { useServerCall } from '../../components/use-server-call.ts'
import { useTeams } from '../../db/tab/hooks.ts'
import { ApiError } from '../../lib/api.ts'
import { codeMessage } from '../sources/source-api.ts'
import { approveCliLogin, fetchCliLogin } from './cli-login-api.ts'

const route = getRouteApi('/_dashboard/cli-login/$loginId')

type Read =
  | { kind: 'loading' }
  | { kind: 'gone' }
  | { kind: 'failed'; message: string }
  | { kind: 'read'; login: CliLogin }

function useCliLogin(id: string): Read {
  const [read, setRead] = useState<Read>({ kind: 'loading' })
  useEffect(() => {
    const controller = new AbortController()
    fetchCliLogin(id, controller.signal).then(
      (login) => setRead({ kind: 'read', login }),
      (error: unknown) => {
        if (controller.signal.aborted) return
        setRead(
          error instanceof ApiError && error.status === 404
            ? { kind: 'gone' }
            : { kind: 'failed', message: codeMessage(error) },
        )
      },
    )
    return () => controller.abort()
  }, [id])
  return read
}

export function CliLoginPage() {
  const { loginId } = route.useParams()
  const read = useCliLogin(loginId)
  return (
    <Stack spacing={3} sx={{ maxWidth: 560 }}>
      <PageTitle>Sign in the sluice CLI</PageTitle>
      {read.kind === 'loading' && (
        <Typography role="status">Loading...</Typography>
      )}
      {read.kind === 'failed' && <Alert severity="error">{read.message}</Alert>}
      {(read.kind === 'gone' ||
        (read.kind === 'read' && read.login.state === 'expired')) && (
        <Alert severity="warning">
          This login is unknown or has expired. Run `sluice auth login` again.
        </Alert>
      )}
      {read.kind === 'read' && read.login.state === 'approved' && (
        <Alert severity="info">This login was approved already.</Alert>
      )}
      {read.kind === 'read' && read.login.state === 'pending' && (
        <Approve login={read.login} />
      )}
    </Stack>
  )
}

function Approve({ login }: { login: CliLogin }) {
  const teams = useTeams()
  const [teamId, setTeamId] = useState('')
  const [approved, setApproved] = useState(false)
  const call = useServerCall()
  const chosen = teamId || teams?.[0]?.id || ''

  if (approved)
    return (
      <Alert severity="success" role="status">
        Approved. Return to your terminal: it now holds an API token of this
        team. Revoke it on the team page when it is no longer needed.
      </Alert>
    )
  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Stack spacing={2}>
        <Typography>
          A terminal on <strong>{login.machine}</strong> asks for an API token.
          Approve it only if it shows this code:
        </Typography>
        <Typography
          aria-label="Login code"
          sx={{ fontFamily: 'monospace', fontSize: 28, letterSpacing: 4 }}
        >
          {login.user_code}
        </Typography>
        <TextField
          select
          label="Team"
          value={chosen}
          onChange={(event) => setTeamId(event.target.value)}
          disabled={call.busy || !teams}
        >
          {(teams ?? []).map((team) => (
            <MenuItem key={team.id} value={team.id}>
              {team.name}
            </MenuItem>
          ))}
        </TextField>
        <Typography variant="body2" color="text.secondary">
          The token reaches this team&apos;s sources and setup links, and
          nothing else.
        </Typography>
        {call.error && <Alert severity="error">{call.error}</Alert>}
        <Stack direction="row">
          <Button
            variant="contained"
            disabled={call.busy || !chosen}
            onClick={() =>
              void call.run(async () => {
                await approveCliLogin(login.id, chosen)
                setApproved(true)
              }, codeMessage)
            }
          >
            {call.busy ? 'Approving...' : 'Approve'}
          </Button>
        </Stack>
      </Stack>
    </Paper>
  )
}
