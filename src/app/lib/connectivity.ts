// Whether the server can be reached. The app keeps working on the local store without it, so
// this only drives the offline indicator and which actions are allowed. Shape streams retry on
// their own and report nothing, hence a light health probe: rare while online, frequent while
// offline so catching up starts soon after the server is back.
import { useSyncExternalStore } from 'react'

const HEALTH_PATH = '/api/public/health'
const PROBE_ONLINE_MS = 15_000
const PROBE_OFFLINE_MS = 2_000
const PROBE_LIMIT_MS = 5_000

let online = true
let timer: ReturnType<typeof setTimeout> | undefined
const listeners = new Set<() => void>()

function set(next: boolean) {
  if (next !== online) {
    online = next
    for (const listener of listeners) listener()
  }
  schedule()
}

function schedule() {
  clearTimeout(timer)
  if (listeners.size === 0) return
  timer = setTimeout(
    () => void probe(),
    online ? PROBE_ONLINE_MS : PROBE_OFFLINE_MS,
  )
}

/** Asks the server whether it is there; any answer at all means it is reachable. */
async function probe(): Promise<boolean> {
  try {
    await fetch(HEALTH_PATH, {
      cache: 'no-store',
      signal: AbortSignal.timeout(PROBE_LIMIT_MS),
    })
    set(true)
  } catch {
    set(false)
  }
  return online
}

/** For callers that found out by themselves (a request that failed to reach the server). */
export function reportUnreachable(): void {
  set(false)
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  if (listeners.size === 1) {
    addEventListener('online', onBrowserOnline)
    addEventListener('offline', reportUnreachable)
    void probe()
  }
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0) {
      clearTimeout(timer)
      removeEventListener('online', onBrowserOnline)
      removeEventListener('offline', reportUnreachable)
    }
  }
}

function onBrowserOnline() {
  void probe()
}

export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, () => online)
}

export const OFFLINE_REASON =
  'You are offline: this needs a connection to the server.'
