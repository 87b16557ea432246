// The team page's API tokens: each token's name, when it was made, last used and expires, and
// a revoke that asks first. Read over REST (use-api-tokens.ts), as tokens are not synced.
import { Alert, Button, TableCell, Typography } from '@mui/material'
import type { ApiToken } from '../../../shared/api-tokens.ts'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { DataTable } from '../../components/data-table.tsx'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import { SectionHeading } from '../../components/section-heading.tsx'
import { useConfirmedAction } from '../../components/use-confirmed-action.ts'
import { formatDateTime } from '../sources/format.ts'
import { revokeApiToken } from './api-tokens-api.ts'
import { CreateApiToken } from './create-api-token.tsx'
import { useApiTokens } from './use-api-tokens.ts'

const when = (at: string | null, none: string) =>
  at ? formatDateTime(at) : none

function TokenCells(props: {
  token: ApiToken
  onRevoke: (token: ApiToken) => void
}) {
  const { token } = props
  return (
    <>
      <TableCell>{token.name}</TableCell>
      <TableCell>{formatDateTime(token.created_at)}</TableCell>
      <TableCell>{when(token.last_used_at, 'Never')}</TableCell>
      <TableCell>{when(token.expires_at, 'Never')}</TableCell>
      <TableCell align="right">
        <NeedsNetwork>
          <Button
            color="error"
            size="small"
            onClick={() => props.onRevoke(token)}
            aria-label={`Revoke API token ${token.name}`}
          >
            Revoke
          </Button>
        </NeedsNetwork>
      </TableCell>
    </>
  )
}

export function ApiTokensSection({ teamId }: { teamId: string }) {
  const { tokens, error, reload } = useApiTokens(teamId)
  const revoke = useConfirmedAction(async (token: ApiToken) => {
    await revokeApiToken(teamId, token.id)
    reload()
  })

  return (
    <section aria-label="API tokens">
      <SectionHeading title="API tokens">
        <CreateApiToken teamId={teamId} onCreated={reload} />
      </SectionHeading>
      {tokens && tokens.length === 0 && (
        <Typography color="text.secondary">
          No API tokens yet. A token lets a script or CI job manage this
          team&apos;s sources and setup links.
        </Typography>
      )}
      {tokens && tokens.length > 0 && (
        <DataTable
          label="API tokens"
          columns={['Name', 'Created', 'Last used', 'Expires', '']}
          rows={tokens}
          rowKey={(token) => token.id}
        >
          {(token) => <TokenCells token={token} onRevoke={revoke.ask} />}
        </DataTable>
      )}
      {error && (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={reload}>
              Retry
            </Button>
          }
        >
          Failed to load the API tokens: {error}
        </Alert>
      )}
      <ConfirmDialog
        {...revoke.dialog}
        title="Revoke API token"
        confirmLabel="Revoke"
        busyLabel="Revoking..."
      >
        <Typography>
          {revoke.asking ? `'${revoke.asking.name}'` : 'The token'} stops
          working at once: anything using it gets 401.
        </Typography>
      </ConfirmDialog>
    </section>
  )
}
