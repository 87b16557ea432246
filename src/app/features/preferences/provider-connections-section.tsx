// /preferences: each provider account (connected by OAuth or a token, since when, or not),
// with Disconnect behind a confirm and Connect opening the same form as the wizard's. OAuth
// started here comes back to the provider's wizard start (the server takes no other page).
import {
  Button,
  Dialog,
  DialogContent,
  DialogTitle,
  Stack,
  Typography,
} from '@mui/material'
import { useState } from 'react'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { NeedsNetwork } from '../../components/needs-network.tsx'
import { PanelSection } from '../../components/panel-section.tsx'
import { useConfirmedAction } from '../../components/use-confirmed-action.ts'
import {
  disconnect,
  PROVIDER_NAMES,
  PROVIDERS,
  type Provider,
  type ProviderConnection,
} from '../providers/provider-api.ts'
import { failureText } from '../providers/failure-text.ts'
import { ProviderConnect } from '../providers/provider-connect.tsx'
import {
  connectionOf,
  useProviderConnections,
} from '../providers/use-provider-connections.ts'
import { connectionStatus } from './connection-status.ts'

export function ProviderConnectionsSection() {
  const { state, reload } = useProviderConnections()
  const [connecting, setConnecting] = useState<ProviderConnection | null>(null)
  const leaving = useConfirmedAction(
    async (provider: Provider) => {
      await disconnect(provider)
      reload()
    },
    (failure, provider) =>
      failureText(failure, `Failed to disconnect ${PROVIDER_NAMES[provider]}`),
  )

  return (
    <PanelSection title="Provider connections">
      {state.kind === 'loading' && (
        <Typography color="text.secondary">Loading...</Typography>
      )}
      {state.kind === 'error' && (
        <Typography color="error">
          Error loading provider connections
        </Typography>
      )}
      {state.kind === 'ready' &&
        PROVIDERS.map((provider) => {
          const row = connectionOf(state.providers, provider)
          const name = PROVIDER_NAMES[provider]
          return (
            <Stack
              key={provider}
              direction="row"
              spacing={2}
              useFlexGap
              aria-label={name}
              role="group"
              sx={{ py: 1, alignItems: 'center', flexWrap: 'wrap' }}
            >
              <Typography sx={{ minWidth: 100, fontWeight: 600 }}>
                {name}
              </Typography>
              <Typography color="text.secondary" sx={{ flexGrow: 1 }}>
                {connectionStatus(row.connection)}
              </Typography>
              <NeedsNetwork>
                {row.connection ? (
                  <Button color="error" onClick={() => leaving.ask(provider)}>
                    Disconnect
                  </Button>
                ) : (
                  <Button variant="outlined" onClick={() => setConnecting(row)}>
                    Connect
                  </Button>
                )}
              </NeedsNetwork>
            </Stack>
          )
        })}
      <Dialog
        open={connecting !== null}
        onClose={() => setConnecting(null)}
        maxWidth="sm"
        fullWidth
      >
        <DialogTitle>
          Connect {connecting ? PROVIDER_NAMES[connecting.provider] : ''}
        </DialogTitle>
        <DialogContent>
          {connecting && (
            <ProviderConnect
              connection={connecting}
              // The server returns from OAuth to wizard pages only: the provider's start.
              returnTo={`/sources/new/${connecting.provider}`}
              onConnected={() => {
                setConnecting(null)
                reload()
              }}
            />
          )}
        </DialogContent>
      </Dialog>
      <ConfirmDialog
        {...leaving.dialog}
        title={`Disconnect ${leaving.asking ? PROVIDER_NAMES[leaving.asking] : ''}?`}
        confirmLabel="Disconnect"
        busyLabel="Disconnecting..."
      >
        <Typography>
          Sluice forgets the account&apos;s access (and revokes it where the
          provider allows). Sources already added keep working: they connect
          with their own connection strings.
        </Typography>
      </ConfirmDialog>
    </PanelSection>
  )
}
