// Whether a provider page may read its lists: the account must be connected. Until then, or
// when a list answers 401 (a revoked grant), the page shows the connect form instead.
import { Typography } from '@mui/material'
import type { ReactNode } from 'react'
import type { Provider } from './provider-api.ts'
import { ProviderConnect } from './provider-connect.tsx'
import type { ListState } from './refetch-policy.ts'
import {
  connectionOf,
  useProviderConnections,
} from './use-provider-connections.ts'

export type Gate = ReturnType<typeof useProviderGate>

export function useProviderGate(provider: Provider) {
  const { state, reload } = useProviderConnections()
  const connection =
    state.kind === 'ready' ? connectionOf(state.providers, provider) : null
  return {
    provider,
    state,
    connection,
    reload,
    // Connections unreadable: let the lists try, their 401 still says "not connected".
    mayRead:
      state.kind === 'error' ||
      (connection !== null && connection.connection !== null),
  }
}

export function ProviderGate({
  gate,
  lists,
  onConnected,
  children,
}: {
  gate: Gate
  /** The page's lists: one answering 401 means the account is not connected after all. */
  lists: ListState<unknown>[]
  /** Read the lists again once connected. */
  onConnected: () => void
  children: ReactNode
}) {
  if (gate.state.kind === 'loading')
    return <Typography color="text.secondary">Loading...</Typography>
  const refused = lists.some((list) => list.kind === 'not-connected')
  if (!gate.mayRead || refused)
    return (
      <ProviderConnect
        connection={
          gate.connection ?? {
            provider: gate.provider,
            oauth: false,
            connection: null,
          }
        }
        onConnected={() => {
          gate.reload()
          onConnected()
        }}
      />
    )
  return children
}
