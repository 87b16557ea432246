// Whether the server can be reached (connectivity.ts), for components.
import { useSyncExternalStore } from 'react'
import { isOnline, onConnectivity } from './connectivity.ts'

export function useOnline(): boolean {
  return useSyncExternalStore(onConnectivity, isOnline)
}

export const OFFLINE_REASON =
  'You are offline: this needs a connection to the server.'
