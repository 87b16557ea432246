// A tab's statement when the worker holding the store goes (its tab closed) and another is
// elected: it ends, with LeaderChangedError, and asked again it is answered by the new holder
// (fault F10). The holders are stand-ins speaking PGliteWorker's protocol in this process,
// over a real PGlite; the new one listens to the tab only once told (as an elected worker does
// once its database is open).
import { PGlite } from '@electric-sql/pglite'
import { LeaderChangedError } from '@electric-sql/pglite/worker'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  DIRECT_REQUESTS,
  NOT_HELD_HERE,
} from '../../src/app/db/shared/worker-messages.ts'
import { StoreClient } from '../../src/app/db/tab/store-client.ts'
import { acrossLeaderChange } from '../../src/app/db/tab/store.ts'
import { waitUntil } from '../support/wait.ts'

const ID = 'store'

type Rpc = { type: string; callId: string; method: string; args: unknown[] }

// What PGliteWorker's worker side answers; the locks are no-ops (one tab, nothing to wait for).
async function answerOf(db: PGlite, method: string, args: unknown[]) {
  if (method === 'getDebugLevel') return db.debug
  if (method.startsWith('_')) return undefined
  const own = db as unknown as Record<string, (...a: unknown[]) => unknown>
  return own[method]!.apply(db, args)
}

/** A worker holding the database, as PGliteWorker's worker side answers a tab. */
function holder(db: PGlite, listening: boolean) {
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
  return {
    state,
    close() {
      broadcast.close()
      for (const tab of tabs) tab.close()
    },
  }
}

/** The tab's side of its own worker, which never holds the database here. */
function tabWorker() {
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

describe('a tab statement across a change of the holding worker', () => {
  let db: PGlite
  const worker = tabWorker()
  beforeAll(async () => {
    db = await PGlite.create()
    vi.stubGlobal('navigator', {
      locks: {
        request: (_name: string, held: () => Promise<void>) => held(),
      },
    })
    vi.stubGlobal('__sluiceStore', {
      worker: worker.port,
      heard: [],
      error: null,
    })
  }, 120_000)
  afterAll(async () => {
    vi.unstubAllGlobals()
    for (const port of worker.ports) port.close()
    await db.close()
  })

  it('ends, and is answered when asked again', async () => {
    const first = holder(db, true)
    const client = new StoreClient(worker.port as unknown as Worker)
    worker.say({ type: 'here' })
    worker.say({ type: 'ready', id: ID })
    await client.waitReady
    await client.arrayTypesRead()
    expect((await client.query('select 1 as n')).rows).toEqual([{ n: 1 }])

    // The holder's tab closes while a statement is in flight, and another worker is elected.
    first.state.stalled = true
    let outcome: unknown = null
    client.query('select 2 as n').then(
      (result) => (outcome = result),
      (error: unknown) => (outcome = error),
    )
    await waitUntil(
      'the statement to reach the holder',
      () => first.state.stalledCalls > 0,
    )
    first.close()
    const second = holder(db, false)
    await waitUntil('the statement to end', () => outcome !== null, 10_000)
    expect(outcome).toBeInstanceOf(LeaderChangedError)

    // Its database open, the elected worker answers the tab.
    second.state.listening = true
    const again = await acrossLeaderChange(() => client.query('select 2 as n'))
    expect(again.rows).toEqual([{ n: 2 }])
    second.close()
    await client.close()
  }, 30_000)
})
