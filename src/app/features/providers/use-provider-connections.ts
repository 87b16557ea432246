// The user's provider connections (GET /api/v1/provider-connections), read when a page needs
// them and again after a change. Asked first so a page can show the connect form without
// calling a list that would answer 401 (the browser logs every 4xx as an error).
import { useCallback, useEffect, useState } from 'react'
import {
  fetchConnections,
  type Connections,
  type Provider,
  type ProviderConnection,
} from './provider-api.ts'

export type ConnectionsState =
  { kind: 'loading' } | { kind: 'error' } | ({ kind: 'ready' } & Connections)

export function useProviderConnections(): {
  state: ConnectionsState
  reload: () => void
} {
  const [reloads, setReloads] = useState(0)
  const [state, setState] = useState<ConnectionsState>({ kind: 'loading' })
  useEffect(() => {
    const aborter = new AbortController()
    fetchConnections(aborter.signal).then(
      (connections) => setState({ kind: 'ready', ...connections }),
      () => {
        if (!aborter.signal.aborted) setState({ kind: 'error' })
      },
    )
    return () => aborter.abort()
  }, [reloads])
  const reload = useCallback(() => setReloads((n) => n + 1), [])
  return { state, reload }
}

/** One provider's row; a server that does not list it reads as not connected, no OAuth. */
export function connectionOf(
  providers: ProviderConnection[],
  provider: Provider,
): ProviderConnection {
  return (
    providers.find((row) => row.provider === provider) ?? {
      provider,
      oauth: false,
      connection: null,
    }
  )
}
