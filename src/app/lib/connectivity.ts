// Whether the server can be reached. The app keeps working on the local store without it, so
// this drives the offline indicator, which actions are allowed, and when live syncs may ask.
// Any request that fails to reach the server says so at once (reportUnreachable); from then
// on only the health probe asks, every 2 s, and every live sync waits for its answer
// (whenReachable) instead of retrying on its own. While online it runs rarely, as a backstop.
//
// The store's worker (where the sync runs) and every tab each hold this state; what one finds
// out it tells the others over a BroadcastChannel, so a tab shows the outage the sync found,
// and the sync resumes when any tab's probe gets an answer. No React here: the worker loads it.

import { HEALTH_PATH } from '../../shared/api-routes.ts'

const PROBE_ONLINE_MS = 15_000
const PROBE_OFFLINE_MS = 2_000
const PROBE_LIMIT_MS = 5_000

let online = true
let timer: ReturnType<typeof setTimeout> | undefined
const listeners = new Set<() => void>()
// Requests held until the server answers; they keep the probe going with nobody watching.
const waiting = new Set<() => void>()

const CHANNEL = 'sluice.connectivity'
let channel: BroadcastChannel | null = null

function join(): BroadcastChannel | null {
  if (channel || typeof BroadcastChannel === 'undefined') return channel
  channel = new BroadcastChannel(CHANNEL)
  channel.onmessage = (event: MessageEvent<{ online?: unknown }>) => {
    if (typeof event.data?.online === 'boolean') set(event.data.online, true)
  }
  return channel
}
join()

/** `heard`: another context found it out and said so (it already told everyone). */
function set(next: boolean, heard = false) {
  if (next !== online) {
    online = next
    if (!heard) {
      join()?.postMessage({ online: next })
      // The one line of ours for an outage: the browser already logs each failed request.
      if (!online)
        console.info('Sluice: the server cannot be reached; retrying quietly.')
    }
    for (const listener of listeners) listener()
    if (online) for (const resume of [...waiting]) resume()
  }
  schedule()
}

function schedule() {
  clearTimeout(timer)
  timer = undefined
  if (listeners.size === 0 && (online || waiting.size === 0)) return
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

/** Resolves at once while the server is reachable, else once it answers again; rejects on abort. */
export function whenReachable(signal?: AbortSignal | null): Promise<void> {
  if (online) return Promise.resolve()
  return new Promise((resolve, reject) => {
    const stop = () => {
      waiting.delete(resume)
      signal?.removeEventListener('abort', aborted)
    }
    const resume = () => {
      stop()
      resolve()
    }
    const aborted = () => {
      stop()
      reject(signal?.reason ?? new DOMException('Aborted', 'AbortError'))
    }
    if (signal?.aborted) return aborted()
    waiting.add(resume)
    signal?.addEventListener('abort', aborted, { once: true })
    if (timer === undefined) schedule()
  })
}

/** Calls `listener` on every change; while anyone listens, the probe runs as a backstop. */
export function onConnectivity(listener: () => void): () => void {
  listeners.add(listener)
  if (listeners.size === 1) {
    addEventListener('online', onBrowserOnline)
    addEventListener('offline', reportUnreachable)
    void probe()
  }
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0) {
      removeEventListener('online', onBrowserOnline)
      removeEventListener('offline', reportUnreachable)
      schedule()
    }
  }
}

function onBrowserOnline() {
  void probe()
}

export const isOnline = (): boolean => online
