// Sign-out's end of the store, in the tabs (worker/store-close.ts has the workers' part): the
// signing-out tab asks every worker to close the store and waits until its database is
// deleted. Every tab then lets its worker go, and loads the landing page anew once the session
// has ended: its store handle belonged to that worker, and a next sign-in needs a new one.
import { onSessionEnded } from '../../lib/session-signal.ts'
import { rememberStore } from './hints.ts'
import {
  CLOSE_STORE,
  STORE_CHANNEL,
  STORE_CLOSED,
} from '../shared/worker-messages.ts'

// Closing waits for the sync's step in progress and for IndexedDB; past this, the sign-out
// goes on without it (and says so).
const CLOSE_WAIT_MS = 10_000

type Message = MessageEvent<{ type?: string } | null>

let closed = false

/** Whether this page's store was closed by a sign-out (the page reloads when it ends). */
export const storeClosed = (): boolean => closed

/** Every tab with a store worker: `terminate` it once the store is closed. */
export function followStoreClosing(terminate: () => void): void {
  const channel = new BroadcastChannel(STORE_CHANNEL)
  channel.onmessage = (event: Message) => {
    if (event.data?.type !== STORE_CLOSED || closed) return
    closed = true
    channel.close()
    // Postgres ends with its worker. Said again here: a tab still making the store its user's
    // when the sign-out began may have said the store was there since.
    terminate()
    rememberStore(false)
    onSessionEnded(() => location.assign('/'))
  }
}

/** Signing out: resolves once the store's database is deleted. */
export function closeStore(): Promise<void> {
  const channel = new BroadcastChannel(STORE_CHANNEL)
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('The local store did not close')),
      CLOSE_WAIT_MS,
    )
    channel.onmessage = (event: Message) => {
      if (event.data?.type !== STORE_CLOSED) return
      clearTimeout(timer)
      resolve()
    }
    channel.postMessage({ type: CLOSE_STORE })
  }).finally(() => channel.close())
}
