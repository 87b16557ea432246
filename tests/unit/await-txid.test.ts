// The txid wait helper on real PGlite (in Node) with the live extension and the shipped client
// schema: it resolves when a row carrying the txid lands, and fails clearly when none does.
import { PGlite } from '@electric-sql/pglite'
import { live } from '@electric-sql/pglite/live'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  awaitCreated,
  awaitSetupFormDeleted,
  awaitShapeDeleted,
  awaitSourceLabels,
  awaitTxid,
  TxidTimeoutError,
  writeAndAwait,
} from '../../src/app/db/shared/await-txid.ts'
import { migrateLocal } from '../../src/app/db/shared/migrations.ts'

type Store = Awaited<ReturnType<typeof open>>
const open = () => PGlite.create({ extensions: { live } })

let store: Store
let next = 1
const sourceId = () =>
  `00000000-0000-4000-8000-${String(next++).padStart(12, '0')}`

async function syncSource(txids: number[] | null, id = sourceId()) {
  await store.query(
    `insert into sources (id, team_id, state, region, connection_url, source_secret,
                          created_at, updated_at, synced_txids)
     values ($1, '00000000-0000-4000-8000-0000000000aa', 'active', 'us-east-1',
             'postgres://db', 'secret', now(), now(), $2)`,
    [id, txids],
  )
  return id
}

describe('awaitTxid', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    store = await open()
    await migrateLocal(store)
  }, 120_000)
  afterAll(() => store.close())

  it('resolves when a row with the txid is applied after it starts waiting', async () => {
    const waiting = awaitTxid(store, 'sources', 1001)
    let settled = false
    void waiting.then(() => (settled = true))
    await syncSource([999])
    await store.query('select 1') // a round trip later, an unrelated txid has not resolved it
    expect(settled).toBe(false)
    await syncSource([1000, 1001])
    await expect(waiting).resolves.toBeUndefined()
  })

  it('resolves at once when the row is already there', async () => {
    await syncSource([2002])
    await expect(awaitTxid(store, 'sources', 2002)).resolves.toBeUndefined()
  })

  it('sees an update that carries the txid', async () => {
    const id = await syncSource(null)
    const waiting = awaitTxid(store, 'sources', 3003)
    await store.query(
      `update sources set state = 'error', synced_txids = '{3003}' where id = $1`,
      [id],
    )
    await expect(waiting).resolves.toBeUndefined()
  })

  it('fails with a clear error when the change never arrives', async () => {
    const error = await awaitTxid(store, 'sources', 4004, 50).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(TxidTimeoutError)
    expect((error as Error).message).toMatch(
      /saved, but it has not reached this browser/,
    )
  })

  it('writeAndAwait returns the write answer once its change is local', async () => {
    const answer = await writeAndAwait(store, 'sources', async () => {
      // the change syncs while (or before) the helper starts waiting
      void Promise.resolve().then(() => syncSource([5005]))
      return { id: 'x', txid: 5005 }
    })
    expect(answer).toEqual({ id: 'x', txid: 5005 })
  })

  it('writeAndAwait passes a failed write on and waits for nothing', async () => {
    await expect(
      writeAndAwait(store, 'sources', () =>
        Promise.reject(new Error('Code 403: forbidden')),
      ),
    ).rejects.toThrow('Code 403: forbidden')
  })
})

describe('awaitCreated', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    store = await open()
    await migrateLocal(store)
  }, 120_000)
  afterAll(() => store.close())

  it('resolves when the new row arrives in a snapshot, without txids', async () => {
    const id = sourceId()
    const waiting = awaitCreated(store, 'sources', id, 6006)
    let settled = false
    void waiting.then(() => (settled = true))
    await syncSource(null) // another row, no txids: not the one created
    await store.query('select 1')
    expect(settled).toBe(false)
    await syncSource(null, id)
    await expect(waiting).resolves.toBeUndefined()
  })

  it('resolves on the txid, as awaitTxid does', async () => {
    const waiting = awaitCreated(store, 'sources', sourceId(), 7007)
    await syncSource([7007])
    await expect(waiting).resolves.toBeUndefined()
  })

  it('fails with the same clear error when neither arrives', async () => {
    await expect(
      awaitCreated(store, 'sources', sourceId(), 8008, 50),
    ).rejects.toBeInstanceOf(TxidTimeoutError)
  })
})

describe('awaitSourceLabels', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    store = await open()
    await migrateLocal(store)
  }, 120_000)
  afterAll(() => store.close())

  it('resolves once the row carries the new name, even when a later write took its txid', async () => {
    const id = await syncSource(null)
    const waiting = awaitSourceLabels(store, id, { name: 'Orders' }, 7007)
    let settled = false
    void waiting.then(() => (settled = true))
    await store.query('select 1')
    expect(settled).toBe(false)
    await store.query(
      `update sources set name = 'Orders', synced_txids = '{7008}' where id = $1`,
      [id],
    )
    await expect(waiting).resolves.toBeUndefined()
  })

  it('waits for a cleared name to read as none, and times out clearly', async () => {
    const id = await syncSource(null)
    await store.query(`update sources set name = 'Old' where id = $1`, [id])
    const error = await awaitSourceLabels(
      store,
      id,
      { name: null },
      8008,
      50,
    ).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TxidTimeoutError)
    const waiting = awaitSourceLabels(store, id, { name: null }, 8009)
    await store.query(`update sources set name = null where id = $1`, [id])
    await expect(waiting).resolves.toBeUndefined()
  })

  it('waits for every label given, and only those', async () => {
    const id = await syncSource(null)
    await store.query(`update sources set name = 'Kept' where id = $1`, [id])
    const waiting = awaitSourceLabels(
      store,
      id,
      { project: 'my-app', environment: null },
      9009,
    )
    let settled = false
    void waiting.then(() => (settled = true))
    await store.query(
      `update sources set project = 'my-app', environment = 'pr-1' where id = $1`,
      [id],
    )
    await store.query('select 1')
    expect(settled).toBe(false)
    await store.query(`update sources set environment = null where id = $1`, [
      id,
    ])
    await expect(waiting).resolves.toBeUndefined()
  })
})

describe('awaitShapeDeleted', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    store = await open()
    await migrateLocal(store)
  }, 120_000)
  afterAll(() => store.close())

  const syncShape = (source: string, handle: string) =>
    store.query(
      `insert into source_shapes (source_id, handle, table_schema, table_name, params,
                                  row_count, log_bytes, created_at)
       values ($1, $2, 'public', 'items', '[]', 1, 10, now())`,
      [source, handle],
    )

  it("resolves once that shape's row has left the store, not another's", async () => {
    const source = sourceId()
    await syncShape(source, 'h1')
    await syncShape(source, 'h2')
    await syncShape(source, 'h4')
    const waiting = awaitShapeDeleted(store, source, 'h1', 9009)
    let settled = false
    void waiting.then(() => (settled = true))
    await store.query(`delete from source_shapes where handle = 'h2'`)
    await store.query('select 1')
    expect(settled).toBe(false)
    await store.query(`delete from source_shapes where handle = 'h1'`)
    await expect(waiting).resolves.toBeUndefined()
  })

  it('times out clearly when the delete never arrives', async () => {
    const source = sourceId()
    await syncShape(source, 'h3')
    const error = await awaitShapeDeleted(store, source, 'h3', 9010, 50).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(TxidTimeoutError)
  })
})

describe('awaitSetupFormDeleted', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    store = await open()
    await migrateLocal(store)
  }, 120_000)
  afterAll(() => store.close())

  const syncForm = (id: string) =>
    store.query(
      `insert into source_setup_forms (id, team_id, created_at, expires_at)
       values ($1, '00000000-0000-4000-8000-0000000000aa', now(), now() + interval '7 days')`,
      [id],
    )

  it('resolves once the row carries the txid, or deleted_at from a snapshot', async () => {
    const byTxid = sourceId()
    await syncForm(byTxid)
    const waiting = awaitSetupFormDeleted(store, byTxid, 9101)
    let settled = false
    void waiting.then(() => (settled = true))
    await store.query(
      `update source_setup_forms set synced_txids = '{9100}' where id = $1`,
      [byTxid],
    )
    await store.query('select 1')
    expect(settled).toBe(false)
    await store.query(
      `update source_setup_forms set synced_txids = '{9101}' where id = $1`,
      [byTxid],
    )
    await expect(waiting).resolves.toBeUndefined()

    const bySnapshot = sourceId()
    await syncForm(bySnapshot)
    const later = awaitSetupFormDeleted(store, bySnapshot, 9102)
    await store.query(
      `update source_setup_forms set deleted_at = now() where id = $1`,
      [bySnapshot],
    )
    await expect(later).resolves.toBeUndefined()
  })

  it('times out clearly when the delete never arrives', async () => {
    const id = sourceId()
    await syncForm(id)
    const error = await awaitSetupFormDeleted(store, id, 9103, 50).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(TxidTimeoutError)
  })
})
