// Every live request of the browser profile waits here for the server to say it would be
// answered now (lib/live-watch-hub.ts holds the one long-poll that asks, POST /v1/watch), and
// only then is sent. A live request left to itself is a long-poll holding one of the 6
// connections a browser opens per host over HTTP/1.1 for up to 20 s; the dashboard follows
// 7 to 16 shapes per page, so every click queued behind them.
//
// Any tab or worker may hold the hub (a Web Lock); the others hand it their requests over a
// BroadcastChannel. Each context holds a lock of its own for as long as it lives, so the hub can
// drop the requests of a tab that closed.
import {
  CHANNEL,
  CONTEXT_LOCK_PREFIX,
  HUB_LOCK,
  runHub,
  type HubMessage,
  type WaiterMessage,
} from './live-watch-hub.ts'

type Waiting = { request: string; resolve: (gone: boolean) => void }

/** How a held request goes on: sent (say `sent()` once answered), or gone without asking. */
export type Outcome = { gone: true } | { gone: false; sent: () => void }

// Ids only this profile compares. Not crypto.randomUUID: it exists only in secure contexts,
// and this module loads on plain-HTTP pages too (where Web Locks are missing and it stands
// aside, below).
const newId = () =>
  `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`
const context = newId()
const waiting = new Map<string, Waiting>()
let channel: BroadcastChannel | null = null
/** This context's hub, once it holds the lock: its requests go there directly. */
let hub: ((message: WaiterMessage) => void) | null = null

const supported = () =>
  typeof BroadcastChannel !== 'undefined' &&
  typeof navigator !== 'undefined' &&
  navigator.locks !== undefined

function send(message: WaiterMessage) {
  if (hub) hub(message)
  else channel?.postMessage(message)
}

function sendAll() {
  for (const [id, { request }] of waiting)
    send({ type: 'wait', context, id, request })
}

/** What the hub says, from the channel or (when this context is the hub) directly. */
function heard(message: HubMessage | WaiterMessage) {
  // The channel carries the other contexts' requests to the hub too.
  if (message.type === 'hub') return sendAll()
  if (message.type !== 'ready' && message.type !== 'gone') return
  for (const id of message.ids) {
    const found = waiting.get(id)
    if (!found) continue
    waiting.delete(id)
    found.resolve(message.type === 'gone')
  }
}

function join(): BroadcastChannel {
  if (channel) return channel
  channel = new BroadcastChannel(CHANNEL)
  channel.onmessage = (event: MessageEvent<HubMessage | WaiterMessage>) =>
    heard(event.data)
  // Held for this context's life: the hub reads its release as "gone".
  void navigator.locks.request(
    `${CONTEXT_LOCK_PREFIX}${context}`,
    () => new Promise<never>(() => {}),
  )
  // Whoever asks first holds the hub until its context ends; the next in line takes over and
  // asks every context for its requests again.
  void navigator.locks.request(HUB_LOCK, () => {
    hub = runHub(heard)
    return new Promise<never>(() => {})
  })
  return channel
}

/** A live shape request (`live=true`) on this origin: worth holding until it would answer. */
export function isWatchable(url: URL): boolean {
  return (
    url.origin === location.origin && url.searchParams.get('live') === 'true'
  )
}

const nothing = () => {}
const sendAtOnce: Outcome = { gone: false, sent: nothing }

/**
 * Resolves once the server would answer `url` at once (or will not wait on it: its own answer
 * tells why), with the call that says the request is over and its connection free for the
 * next; or once the server says it is gone. Rejects with the signal's reason on abort. Where
 * the browser lacks Web Locks or BroadcastChannel, at once.
 */
export function whenWorthAsking(
  url: URL,
  signal?: AbortSignal | null,
): Promise<Outcome> {
  if (!supported()) return Promise.resolve(sendAtOnce)
  join()
  return new Promise((resolve, reject) => {
    const id = newId()
    const aborted = () => {
      waiting.delete(id)
      send({ type: 'cancel', context, id })
      reject(signal?.reason ?? new DOMException('Aborted', 'AbortError'))
    }
    if (signal?.aborted) return aborted()
    const request = `${url.pathname}${url.search}`
    waiting.set(id, {
      request,
      resolve: (gone) => {
        signal?.removeEventListener('abort', aborted)
        resolve(
          gone
            ? { gone }
            : { gone, sent: () => send({ type: 'done', context, id }) },
        )
      },
    })
    signal?.addEventListener('abort', aborted, { once: true })
    send({ type: 'wait', context, id, request })
  })
}
