// Tells every tab of this browser that a session has ended (a sign-out, or the server refusing
// a shape with 401), so each leaves the dashboard for the landing page together. The tabs
// share one cookie and one store: a session ended in one tab has ended in all of them.
const CHANNEL = 'sluice.session'

/** The user whose session ended; null when it is whoever is signed in (a sign-out). */
export type SessionEnded = { userId: string | null }

type Listener = (ended: SessionEnded) => void

const listeners = new Set<Listener>()
let channel: BroadcastChannel | null = null

function join(): BroadcastChannel | null {
  if (channel || typeof BroadcastChannel === 'undefined') return channel
  channel = new BroadcastChannel(CHANNEL)
  channel.onmessage = (event: MessageEvent<SessionEnded>) => notify(event.data)
  return channel
}

function notify(ended: SessionEnded) {
  for (const listener of listeners) listener(ended)
}

/** Says so to the other tabs and to this one (a channel does not echo to its sender). */
export function announceSessionEnded(ended: SessionEnded): void {
  join()?.postMessage(ended)
  notify(ended)
}

export function onSessionEnded(listener: Listener): () => void {
  join()
  listeners.add(listener)
  return () => listeners.delete(listener)
}
