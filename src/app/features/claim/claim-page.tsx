// /claim?uuid={claimId}: a signed-in user claims a claimable source into one of
// their teams. Signed out, it says so and offers the two sign-ins, which bring the user back
// here. The claim is polled while pending or ready; once claimed the page says so and, after
// CLAIM_REDIRECT_MS and once the source has synced into the store, opens the source's page.
import {
  Alert,
  Box,
  Button,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import {
  CLAIM_MESSAGES,
  CLAIM_REDIRECT_MS,
} from '../../../shared/claimable-sources.ts'
import { idSchema, type AuthUser } from '../../../shared/entities.ts'
import { fetchAuthUser } from '../../db/tab/queries.ts'
import { useDocumentTitle } from '../../components/document-title.ts'
import { LabelledId, PublicCard } from '../../components/public-page.tsx'
import { ApiError } from '../../lib/api.ts'
import {
  claimErrorMessage,
  claimSource,
  fetchTeams,
  type ClaimTeam,
} from './claim-api.ts'
import { claimView, signInHref } from './claim-view.ts'
import { useClaim } from './use-claim.ts'

const route = getRouteApi('/claim')

type Session =
  | { kind: 'loading' }
  | { kind: 'signed-out' }
  | { kind: 'failed' }
  | { kind: 'signed-in'; user: AuthUser; teams: ClaimTeam[] }

function useSession(): Session {
  const [session, setSession] = useState<Session>({ kind: 'loading' })
  useEffect(() => {
    const controller = new AbortController()
    // The user first: signed out, the teams are never asked for (a 401 the console would log).
    fetchAuthUser()
      .then(async (user) => ({
        user,
        teams: await fetchTeams(controller.signal),
      }))
      .then(
        ({ user, teams }) => setSession({ kind: 'signed-in', user, teams }),
        (error: unknown) => {
          if (controller.signal.aborted) return
          setSession(
            error instanceof ApiError && error.status === 401
              ? { kind: 'signed-out' }
              : { kind: 'failed' },
          )
        },
      )
    return () => controller.abort()
  }, [])
  return session
}

function SignIn({ claimId }: { claimId: string }) {
  return (
    <Stack spacing={2}>
      <Alert severity="info">{CLAIM_MESSAGES.signedOut}</Alert>
      <Stack direction="row" spacing={2}>
        <Button variant="contained" href={signInHref('github', claimId)}>
          Sign in with GitHub
        </Button>
        <Button variant="outlined" href={signInHref('google', claimId)}>
          Sign in with Google
        </Button>
      </Stack>
    </Stack>
  )
}

type Outcome =
  | { kind: 'idle' }
  | { kind: 'claiming' }
  | { kind: 'failed'; message: string }
  | { kind: 'claimed' }

function Claim({
  claimId,
  user,
  teams,
}: {
  claimId: string
  user: AuthUser
  teams: ClaimTeam[]
}) {
  const navigate = useNavigate()
  const [teamId, setTeamId] = useState(teams[0]?.id ?? '')
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' })
  const { answer, error } = useClaim(claimId, outcome.kind !== 'claimed')
  const view = claimView(answer)

  async function claim() {
    setOutcome({ kind: 'claiming' })
    let claimed
    try {
      claimed = await claimSource(claimId, teamId)
    } catch (failure) {
      setOutcome({ kind: 'failed', message: claimErrorMessage(failure) })
      return
    }
    setOutcome({ kind: 'claimed' })
    const { awaitClaimedSource } =
      await import('../../db/tab/claimed-source.ts')
    await Promise.all([
      new Promise((resolve) => setTimeout(resolve, CLAIM_REDIRECT_MS)),
      // Not synced in time: the source page shows it once it arrives; the claim stands.
      awaitClaimedSource(user.id, claimed.source_id, claimed.txid).catch(
        () => {},
      ),
    ])
    await navigate({
      to: '/teams/$teamId/$sourceId',
      params: { teamId: claimed.team_id, sourceId: claimed.source_id },
    })
  }

  if (outcome.kind === 'claimed')
    return <Alert severity="success">{CLAIM_MESSAGES.claimed}</Alert>
  if (view.kind === 'loading')
    return error ? (
      <Alert severity="error">{error}</Alert>
    ) : (
      <Typography role="status">Loading...</Typography>
    )
  if (view.kind === 'not-claimable')
    return (
      <Alert severity="warning">
        {CLAIM_MESSAGES.notClaimable}
        {view.reason && <Box sx={{ mt: 1 }}>{view.reason}</Box>}
      </Alert>
    )
  const link = view.answer.claim_link
  return (
    <Stack spacing={2}>
      <Alert severity={view.ready ? 'success' : 'info'} role="status">
        {view.answer.message}
      </Alert>
      {error && <Alert severity="error">{error}</Alert>}
      {link ? (
        <Button
          variant="contained"
          href={link}
          target="_blank"
          rel="noopener noreferrer"
        >
          Transfer database
        </Button>
      ) : (
        <>
          {teams.length > 1 && (
            <TextField
              select
              label="Team"
              value={teamId}
              onChange={(e) => setTeamId(e.target.value)}
            >
              {teams.map((team) => (
                <MenuItem key={team.id} value={team.id}>
                  {team.name}
                </MenuItem>
              ))}
            </TextField>
          )}
          {outcome.kind === 'failed' && (
            <Alert severity="error">{outcome.message}</Alert>
          )}
          <Button
            variant="contained"
            disabled={outcome.kind === 'claiming' || !teamId}
            // claim reports its own failures on the page.
            onClick={() => void claim()}
          >
            {outcome.kind === 'claiming' ? 'Claiming...' : 'Claim Source'}
          </Button>
        </>
      )}
    </Stack>
  )
}

function Body({ claimId }: { claimId: string }) {
  const session = useSession()
  // Not an id the server could know: nothing to ask it.
  if (!idSchema.safeParse(claimId).success)
    return <Alert severity="warning">{CLAIM_MESSAGES.notClaimable}</Alert>
  switch (session.kind) {
    case 'loading':
      return <Typography role="status">Loading...</Typography>
    case 'signed-out':
      return <SignIn claimId={claimId} />
    case 'failed':
      return <Alert severity="error">{CLAIM_MESSAGES.network}</Alert>
    case 'signed-in':
      return (
        <Claim claimId={claimId} user={session.user} teams={session.teams} />
      )
  }
}

export function ClaimPage() {
  const { uuid } = route.useSearch()
  useDocumentTitle('Claim source')
  return (
    <PublicCard title="Claim source">
      {uuid ? (
        <>
          <LabelledId label="Claim ID" id={uuid} />
          <Body claimId={uuid} />
        </>
      ) : (
        <Alert severity="error">{CLAIM_MESSAGES.noId}</Alert>
      )}
    </PublicCard>
  )
}
