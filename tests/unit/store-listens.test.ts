// The store is one Postgres session: the holding worker's live queries (the sync's lists) and
// every tab's share its LISTENs. One of them stopping a live query must leave the others
// hearing changes to the same table (lasting-listens.ts). Before, a tab leaving a page
// UNLISTENed the channel for all, and the sync never followed a team added meanwhile.
// A real PGlite with its live extension; the holder is a stand-in speaking PGliteWorker's
// protocol (store-holder.ts) to a real StoreClient.
import { PGlite } from '@electric-sql/pglite'
import { live, type PGliteWithLive } from '@electric-sql/pglite/live'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { keepListensLasting } from '../../src/app/db/shared/lasting-listens.ts'
import { StoreClient } from '../../src/app/db/tab/store-client.ts'
import { holder, ID, tabWorker } from '../support/store-holder.ts'
import { waitUntil } from '../support/wait.ts'

type Count = { n: number }
const COUNT = 'select count(*)::int as n from t'

describe('live queries sharing the store session', () => {
  let db: PGlite & PGliteWithLive
  let client: StoreClient & PGliteWithLive
  let held: ReturnType<typeof holder>
  const worker = tabWorker()
  beforeAll(async () => {
    db = await PGlite.create({ extensions: { live } })
    keepListensLasting(db)
    await db.exec('create table t (id int primary key)')
    vi.stubGlobal('navigator', {
      locks: {
        request: (_name: string, hold: () => Promise<void>) => hold(),
      },
    })
    vi.stubGlobal('__sluiceStore', {
      worker: worker.port,
      heard: [],
      error: null,
    })
    held = holder(db, true)
    client = new StoreClient(worker.port as unknown as Worker, {
      extensions: { live },
    }) as StoreClient & PGliteWithLive
    worker.say({ type: 'here' })
    worker.say({ type: 'ready', id: ID })
    await client.waitReady
    await client.arrayTypesRead()
  }, 120_000)
  afterAll(async () => {
    vi.unstubAllGlobals()
    held.close()
    await client.close()
    for (const port of worker.ports) port.close()
    await db.close()
  })

  it("a tab stopping a live query leaves the holder's own on the same table hearing", async () => {
    let seen = -1
    const own = await db.live.query<Count>(COUNT, [], (r) => {
      seen = r.rows[0]?.n ?? -1
    })
    const tabs = await client.live.query<Count>(COUNT)
    await tabs.unsubscribe()

    await db.exec('insert into t values (1)')
    await waitUntil('the holder to hear the insert', () => seen === 1)
    await own.unsubscribe()
  })

  it("the holder stopping a live query leaves a tab's on the same table hearing", async () => {
    let seen = -1
    const tabs = await client.live.query<Count>(COUNT, [], (r) => {
      seen = r.rows[0]?.n ?? -1
    })
    const own = await db.live.query<Count>(COUNT)
    await own.unsubscribe()

    await db.exec('insert into t values (2)')
    await waitUntil('the tab to hear the insert', () => seen === 2)
    await tabs.unsubscribe()
  })

  it('a stopped live query hears nothing more', async () => {
    let calls = 0
    const tabs = await client.live.query<Count>(COUNT, [], () => calls++)
    await tabs.unsubscribe()
    // Its first answer came with the query.
    calls = 0
    let seen = -1
    const own = await db.live.query<Count>(COUNT, [], (r) => {
      seen = r.rows[0]?.n ?? -1
    })
    await db.exec('insert into t values (3)')
    await waitUntil('the insert to be heard', () => seen === 3)
    expect(calls).toBe(0)
    await own.unsubscribe()
  })
})
