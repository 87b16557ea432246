// Whether the server can be reached, and whether it can answer. The app keeps working on the
// local store without it, so this drives the offline indicator, which actions are allowed, and
// when live syncs may ask. Any request that fails to reach the server says so at once
// (reportUnreachable); from then on only the health probe asks, every 2 s, and every live sync
// waits for its answer (whenReachable) instead of retrying on its own. While online it runs
// rarely, as a backstop.
//
// A server that answers 503 is there but cannot do the work (its control plane restarting, or
// it is shedding load): reportUnready holds the syncs the same way, and the probe asks the
// readiness route until it answers 200. Without this, every stream retried on its own backoff
// (pglite-sync's client ignores Retry-After): hundreds of refused requests in a 30 s restart.
// The offline indicator is for the server being out of reach only: an unready server answers
// the actions with its own words.
//
// The store's worker (where the sync runs) and every tab each hold this state; what one finds
// out it tells the others over a BroadcastChannel, so a tab shows the outage the sync found,
// and the sync resumes when any tab's probe gets an answer. No React here: the worker loads it.

import { HEALTH_PATH, READY_PATH } from '../../shared/api-routes.ts'

const PROBE_ONLINE_MS = 15_000
const PROBE_OFFLINE_MS = 2_000
const PROBE_LIMIT_MS = 5_000

type State = { online: boolean; ready: boolean }

let online = true
let ready = true
let timer: ReturnType<typeof setTimeout> | undefined
const listeners = new Set<() => void>()
// Requests held until the server answers; they keep the probe going with nobody watching.
const waiting = new Set<() => void>()

const CHANNEL = 'sluice.connectivity'
let channel: BroadcastChannel | null = null

function join(): BroadcastChannel | null {
  if (channel || typeof BroadcastChannel === 'undefined') return channel
  channel = new BroadcastChannel(CHANNEL)
  channel.onmessage = (event: MessageEvent<Partial<State>>) => {
    const { online, ready } = event.data ?? {}
    if (typeof online === 'boolean' && typeof ready === 'boolean')
      set({ online, ready }, true)
  }
  return channel
}
join()

const usable = () => online && ready

/** `heard`: another context found it out and said so (it already told everyone). */
function set(next: State, heard = false) {
  const wasOnline = online
  const wasUsable = usable()
  if (next.online !== online || next.ready !== ready) {
    online = next.online
    ready = next.ready
    if (!heard) {
      join()?.postMessage({ online, ready })
      // The one line of ours for an outage: the browser already logs each failed request.
      if (wasUsable && !online)
        console.info('Sluice: the server cannot be reached; retrying quietly.')
      else if (wasUsable && !ready)
        console.info('Sluice: the server cannot answer yet; retrying quietly.')
    }
    if (online !== wasOnline) for (const listener of listeners) listener()
    if (usable()) for (const resume of [...waiting]) resume()
  }
  schedule()
}

function schedule() {
  clearTimeout(timer)
  timer = undefined
  if (listeners.size === 0 && (usable() || waiting.size === 0)) return
  timer = setTimeout(
    () => void probe(),
    usable() ? PROBE_ONLINE_MS : PROBE_OFFLINE_MS,
  )
}

/**
 * Asks the server whether it is there; any answer at all means it is reachable. While it is
 * not ready, asks its readiness instead: a 200 there means it can answer again.
 */
async function probe(): Promise<boolean> {
  try {
    const response = await fetch(ready ? HEALTH_PATH : READY_PATH, {
      cache: 'no-store',
      signal: AbortSignal.timeout(PROBE_LIMIT_MS),
    })
    await response.body?.cancel()
    set({ online: true, ready: ready || response.ok })
  } catch {
    set({ online: false, ready })
  }
  return online
}

/** For callers that found out by themselves (a request that failed to reach the server). */
export function reportUnreachable(): void {
  set({ online: false, ready })
}

/** For callers that got a 503: the server is there, and cannot do the work yet. */
export function reportUnready(): void {
  set({ online: true, ready: false })
}

/**
 * Resolves at once while the server is reachable and ready, else once the probe finds it so;
 * rejects on abort.
 */
export function whenReachable(signal?: AbortSignal | null): Promise<void> {
  if (usable()) return Promise.resolve()
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
