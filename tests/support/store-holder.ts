// A stand-in for the worker holding the store, speaking PGliteWorker's protocol to a tab's
// StoreClient in this process, over a real PGlite; and the tab's own worker, which never holds
// it here.
import type { PGlite } from '@electric-sql/pglite'
import {
  DIRECT_REQUESTS,
  NOT_HELD_HERE,
} from '../../src/app/db/shared/worker-messages.ts'

export const ID = 'store'

type Rpc = { type: string; callId: string; method: string; args: unknown[] }

// What PGliteWorker's worker side answers; the locks are no-ops (one tab, nothing to wait for).
async function answerOf(db: PGlite, method: string, args: unknown[]) {
  if (method === 'getDebugLevel') return db.debug
  if (method.startsWith('_')) return undefined
  const own = db as unknown as Record<string, (...a: unknown[]) => unknown>
  return own[method]!.apply(db, args)
}

/** A worker holding the database, as PGliteWorker's worker side answers a tab. */
export function holder(db: PGlite, listening: boolean) {
  const broadcast = new BroadcastChannel(`pglite-broadcast:${ID}`)
  const tabs: BroadcastChannel[] = []
  const state = { listening, stalled: false, stalledCalls: 0 }
  const connect = (tabId: string) => {
    const tab = new BroadcastChannel(`pglite-tab:${tabId}`)
    tabs.push(tab)
    tab.onmessage = async ({ data }: MessageEvent<Rpc>) => {
      if (data.type !== 'rpc-call') return
      const { callId, method, args } = data
      // Its tab closed mid-statement: the statement's request is never answered.
      if (method.startsWith('execProtocol') && state.stalled)
        return void state.stalledCalls++
      const result = await answerOf(db, method, args)
      tab.postMessage({ type: 'rpc-return', callId, result })
    }
    tab.postMessage({ type: 'connected' })
  }
  broadcast.onmessage = ({
    data,
  }: MessageEvent<{ type: string; id: string }>) => {
    if (data.type === 'tab-here' && state.listening) connect(data.id)
  }
  broadcast.postMessage({ type: 'leader-here', id: ID })
  // Every notification of the session goes to every tab, as PGliteWorker's worker side does.
  const stopNotifying = db.onNotification((channel, payload) =>
    broadcast.postMessage({ type: 'notify', channel, payload }),
  )
  return {
    state,
    close() {
      stopNotifying()
      broadcast.close()
      for (const tab of tabs) tab.close()
    },
  }
}

/** The tab's side of its own worker, which never holds the database here. */
export function tabWorker() {
  const port = Object.assign(new EventTarget(), {
    postMessage(message: { type?: string }, transfer?: MessagePort[]) {
      const direct = transfer?.[0]
      // Direct requests (direct-requests.ts): not held here, so they go through PGliteWorker.
      if (message.type === DIRECT_REQUESTS && direct) {
        ports.push(direct)
        direct.onmessage = ({ data }: MessageEvent<{ id: number }>) =>
          direct.postMessage({ id: data.id, error: NOT_HELD_HERE })
      }
    },
    terminate() {},
  })
  const ports: MessagePort[] = []
  const say = (data: unknown) =>
    port.dispatchEvent(new MessageEvent('message', { data }))
  return { port, say, ports }
}
