// The profile's one watch (lib/live-watch.ts): the live requests of every tab and worker, sent
// as one POST /v1/watch that the server holds until one of them would be answered. The hub
// tells the requests the server names to go, and asks again for the rest. Run by whichever
// context holds the hub lock.
import {
  LIVE_WATCH_MAX_REQUESTS,
  LIVE_WATCH_PATH,
  liveWatchAnswerSchema,
} from '../../shared/live-watch.ts'
import {
  reportUnreachable,
  reportUnready,
  whenReachable,
} from './connectivity.ts'

export const CHANNEL = 'sluice.live-watch'
export const HUB_LOCK = 'sluice.live-watch.hub'
export const CONTEXT_LOCK_PREFIX = 'sluice.live-watch.context:'

/**
 * From a context to the hub: a request to hold; one no longer wanted; one sent and answered
 * (or given up), whose connection is free again.
 */
export type WaiterMessage =
  | { type: 'wait'; context: string; id: string; request: string }
  | { type: 'cancel'; context: string; id: string }
  | { type: 'done'; context: string; id: string }

/**
 * Requests told to go at once, at most: a change can make many shapes ready together, and each
 * takes a connection while it is answered. With the watch, 4 of Chromium's 6 connections per
 * host at the most; the other 2 are always the actions' and pages'.
 */
const MAX_SENDING = 3

/**
 * From the hub: send these now; these are gone (their route would answer 404: end them
 * without asking); or, from a new hub, tell me your requests again.
 */
export type HubMessage =
  | { type: 'hub' }
  | { type: 'ready'; ids: string[] }
  | { type: 'gone'; ids: string[] }

type Entry = { context: string; request: string }

/**
 * Starts the hub; `local` hears what it says to its own context (a channel does not deliver to
 * its sender). Returns where that context's own requests go.
 */
export function runHub(
  local: (message: HubMessage) => void,
): (message: WaiterMessage) => void {
  const channel = new BroadcastChannel(CHANNEL)
  const entries = new Map<string, Entry>()
  // Named by the server, in order, waiting for a free slot; and those sent, by context.
  const due: { id: string; context: string }[] = []
  const sending = new Map<string, string>()
  let current: AbortController | null = null

  const tell = (message: HubMessage) => {
    channel.postMessage(message)
    local(message)
  }
  const release = (ids: string[]) => {
    for (const id of ids) {
      const entry = entries.get(id)
      entries.delete(id)
      if (entry) due.push({ id, context: entry.context })
    }
    sendDue()
  }
  function sendDue() {
    const ids: string[] = []
    while (sending.size < MAX_SENDING && due.length > 0) {
      const next = due.shift()
      if (!next) break
      sending.set(next.id, next.context)
      ids.push(next.id)
    }
    if (ids.length) tell({ type: 'ready', ids })
  }

  function receive(message: WaiterMessage | HubMessage) {
    // The channel carries the hub's own answers to the other contexts too.
    if (
      message.type === 'hub' ||
      message.type === 'ready' ||
      message.type === 'gone'
    )
      return
    if (message.type === 'done') {
      if (sending.delete(message.id)) sendDue()
      return
    }
    // A cancelled request stays in the watch in flight: the server's answer may name it, and
    // nobody is told. Asking again for it alone would cost a request for nothing.
    if (message.type === 'cancel') {
      entries.delete(message.id)
      const at = due.findIndex((d) => d.id === message.id)
      if (at >= 0) due.splice(at, 1)
      if (sending.delete(message.id)) sendDue()
      return
    }
    if (entries.has(message.id)) return
    entries.set(message.id, {
      context: message.context,
      request: message.request,
    })
    restartSoon()
  }
  channel.onmessage = (event: MessageEvent<WaiterMessage | HubMessage>) =>
    receive(event.data)

  // New requests restart the watch with them, once per turn of the event loop however many
  // arrive: a message, not a timer, since a hidden tab's timers are slowed to once a second
  // or even once a minute.
  const tick = new MessageChannel()
  let restartQueued = false
  tick.port1.onmessage = () => {
    restartQueued = false
    current?.abort()
    current = null
    void watch()
  }
  function restartSoon() {
    if (restartQueued) return
    restartQueued = true
    tick.port2.postMessage(null)
  }

  // A closed tab's requests: the context's lock is gone (held or still being granted).
  async function dropGone() {
    const { held = [], pending = [] } = await navigator.locks.query()
    const alive = new Set(
      [...held, ...pending]
        .map((lock) => lock.name ?? '')
        .filter((name) => name.startsWith(CONTEXT_LOCK_PREFIX))
        .map((name) => name.slice(CONTEXT_LOCK_PREFIX.length)),
    )
    for (const [id, entry] of entries)
      if (!alive.has(entry.context)) entries.delete(id)
    for (const [id, context] of sending)
      if (!alive.has(context)) sending.delete(id)
    sendDue()
  }

  async function watch(): Promise<void> {
    if (entries.size === 0) return
    const aborter = new AbortController()
    current = aborter
    await dropGone()
    const ids = [...entries.keys()]
    // Past the server's bound: those go as they are (never seen on a real profile).
    release(ids.splice(LIVE_WATCH_MAX_REQUESTS))
    if (aborter.signal.aborted || ids.length === 0) return
    let answer: Named
    try {
      await whenReachable(aborter.signal)
      const response = await fetch(LIVE_WATCH_PATH, {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          requests: ids.map((id) => entries.get(id)?.request),
        }),
        signal: aborter.signal,
      })
      // The server is there and cannot answer yet: hold every request until it is ready,
      // rather than sending each into the same refusal.
      if (response.status === 503) {
        await response.body?.cancel()
        if (current !== aborter) return
        reportUnready()
        current = null
        void watch()
        return
      }
      answer = await namedIn(response, ids)
    } catch {
      if (aborter.signal.aborted || current !== aborter) return
      // No answer at all: the server is unreachable. The watch waits for it, holding every
      // request, rather than letting each ask (and be refused) on its own.
      reportUnreachable()
      current = null
      void watch()
      return
    }
    if (current !== aborter) return
    current = null
    const gone = answer.gone.filter((id) => entries.delete(id))
    if (gone.length) tell({ type: 'gone', ids: gone })
    release(answer.ready.filter((id) => entries.has(id)))
    // Not awaited: a chain of awaited watches would hold one promise per round for good.
    void watch()
  }

  tell({ type: 'hub' })
  return receive
}

type Named = { ready: string[]; gone: string[] }

/**
 * The ids the server named. Any refusal (a session ended, an older server without the watch)
 * sends them all: each request's own answer is the one that says what to do.
 */
async function namedIn(response: Response, ids: string[]): Promise<Named> {
  if (!response.ok) {
    await response.body?.cancel()
    return { ready: ids, gone: [] }
  }
  const parsed = liveWatchAnswerSchema.safeParse(
    await response.json().catch(() => null),
  )
  if (!parsed.success) return { ready: ids, gone: [] }
  const at = (positions: number[]) => positions.flatMap((i) => ids[i] ?? [])
  return { ready: at(parsed.data.ready), gone: at(parsed.data.gone) }
}
