// A tab's statement when the worker holding the store goes (its tab closed) and another is
// elected: it ends, with LeaderChangedError, and asked again it is answered by the new holder
// (fault F10). The holders are stand-ins speaking PGliteWorker's protocol in this process,
// over a real PGlite (store-holder.ts); the new one listens to the tab only once told (as an
// elected worker does once its database is open).
import { PGlite } from '@electric-sql/pglite'
import { LeaderChangedError } from '@electric-sql/pglite/worker'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { StoreClient } from '../../src/app/db/tab/store-client.ts'
import { acrossLeaderChange } from '../../src/app/db/tab/store.ts'
import { holder, ID, tabWorker } from '../support/store-holder.ts'
import { waitUntil } from '../support/wait.ts'

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
