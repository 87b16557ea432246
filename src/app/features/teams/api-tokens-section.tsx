// The team page's API tokens: each token's name, when it was made, last used and expires, and
// a revoke that asks first; a table, or on a phone a block per token. Read over REST
// (use-api-tokens.ts), as tokens are not synced.
import { Alert, Button, Stack, TableCell, Typography } from '@mui/material'
import type { ApiToken } from '../../../shared/api-tokens.ts'
import { BlockLine, BlockList } from '../../components/block-list.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { DataTable } from '../../components/data-table.tsx'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import { SectionHeading } from '../../components/section-heading.tsx'
import { useConfirmedAction } from '../../components/use-confirmed-action.ts'
import { useWideScreen } from '../../components/use-wide-screen.ts'
import { formatDateTime } from '../sources/format.ts'
import { revokeApiToken } from './api-tokens-api.ts'
import { CreateApiToken } from './create-api-token.tsx'
import { useApiTokens } from './use-api-tokens.ts'

const when = (at: string | null, none: string) =>
  at ? formatDateTime(at) : none

function RevokeButton(props: {
  token: ApiToken
  onRevoke: (token: ApiToken) => void
}) {
  return (
    <NeedsNetwork>
      <Button
        color="error"
        size="small"
        onClick={() => props.onRevoke(props.token)}
        aria-label={`Revoke API token ${props.token.name}`}
      >
        Revoke
      </Button>
    </NeedsNetwork>
  )
}

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
        <RevokeButton token={token} onRevoke={props.onRevoke} />
      </TableCell>
    </>
  )
}

/** On a phone: five columns left each a few characters a line, so each token is a block. */
function TokenList(props: {
  tokens: ApiToken[]
  onRevoke: (token: ApiToken) => void
}) {
  return (
    <BlockList
      label="API tokens"
      items={props.tokens}
      empty=""
      itemKey={(token) => token.id}
    >
      {(token) => (
        <>
          <Stack
            direction="row"
            sx={{ alignItems: 'center', justifyContent: 'space-between' }}
          >
            <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
              {token.name}
            </Typography>
            <RevokeButton token={token} onRevoke={props.onRevoke} />
          </Stack>
          <BlockLine label="Created">
            {formatDateTime(token.created_at)}
          </BlockLine>
          <BlockLine label="Last used">
            {when(token.last_used_at, 'Never')}
          </BlockLine>
          <BlockLine label="Expires">
            {when(token.expires_at, 'Never')}
          </BlockLine>
        </>
      )}
    </BlockList>
  )
}

export function ApiTokensSection({ teamId }: { teamId: string }) {
  const { tokens, error, reload } = useApiTokens(teamId)
  const wide = useWideScreen()
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
      {tokens &&
        tokens.length > 0 &&
        (wide ? (
          <DataTable
            label="API tokens"
            columns={['Name', 'Created', 'Last used', 'Expires', '']}
            rows={tokens}
            rowKey={(token) => token.id}
          >
            {(token) => <TokenCells token={token} onRevoke={revoke.ask} />}
          </DataTable>
        ) : (
          <TokenList tokens={tokens} onRevoke={revoke.ask} />
        ))}
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
