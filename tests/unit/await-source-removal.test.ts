// Waiting for a deleted source to leave the store, on real PGlite with the shipped client
// schema: the deletion's txid may arrive on the row (soft delete, engine cleans up later) or
// the row may simply go (removed in the same transaction), or the engine may give up.
import { PGlite } from '@electric-sql/pglite'
import { live } from '@electric-sql/pglite/live'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  awaitSourceForgotten,
  awaitSourceRemoval,
  TxidTimeoutError,
} from '../../src/app/db/shared/await-txid.ts'
import { migrateLocal } from '../../src/app/db/shared/migrations.ts'

const open = () => PGlite.create({ extensions: { live } })
let store: Awaited<ReturnType<typeof open>>
let next = 1
const newId = () =>
  `00000000-0000-4000-8000-${String(next++).padStart(12, '0')}`

async function syncSource(id: string, txids: number[] | null) {
  await store.query(
    `insert into sources (id, team_id, state, region, connection_url, source_secret,
                          created_at, updated_at, synced_txids)
     values ($1, '00000000-0000-4000-8000-0000000000aa', 'active', 'us-east-1',
             'postgres://db', 'secret', now(), now(), $2)`,
    [id, txids],
  )
}
const markDeleted = (id: string, txid: number) =>
  store.query(
    `update sources set deleted_at = now(), synced_txids = array[$2::bigint] where id = $1`,
    [id, txid],
  )
const remove = (id: string) =>
  store.query('delete from sources where id = $1', [id])

describe('awaitSourceRemoval', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    store = await open()
    await migrateLocal(store)
  }, 120_000)
  afterAll(() => store.close())

  it('resolves gone when the deletion syncs and the engine then removes the row', async () => {
    const id = newId()
    await syncSource(id, [1])
    const waiting = awaitSourceRemoval(store, id, 10)
    await markDeleted(id, 10)
    await remove(id)
    await expect(waiting).resolves.toBe('gone')
  })

  it('resolves gone when the row goes without ever carrying the txid', async () => {
    const id = newId()
    await syncSource(id, [1])
    const waiting = awaitSourceRemoval(store, id, 20)
    await remove(id)
    await expect(waiting).resolves.toBe('gone')
  })

  it('resolves pending when the deletion synced but the source stays', async () => {
    const id = newId()
    await syncSource(id, [1])
    await markDeleted(id, 30)
    await expect(awaitSourceRemoval(store, id, 30, 5_000, 50)).resolves.toBe(
      'pending',
    )
  })

  it('resolves failed when the engine gives up removing the slot', async () => {
    const id = newId()
    await syncSource(id, [1])
    const waiting = awaitSourceRemoval(store, id, 35)
    await markDeleted(id, 35)
    await store.query(`update sources set state = 'error' where id = $1`, [id])
    await expect(waiting).resolves.toBe('failed')
  })

  // The engine fails to reach a stopped database within milliseconds of the deletion, so its
  // write (which replaces the row's txids) can sync together with it: the deletion's txid is
  // never seen on the row, yet the row shows the outcome.
  it('resolves failed at once when the failed removal arrives with the deletion', async () => {
    const id = newId()
    await syncSource(id, [1])
    const waiting = awaitSourceRemoval(store, id, 45, 10_000, 10_000)
    await store.query(
      `update sources set deleted_at = now(), state = 'error', synced_txids = array[46::bigint]
        where id = $1`,
      [id],
    )
    await expect(waiting).resolves.toBe('failed')
  })

  it('counts a deletion as synced when a later write replaced its txid', async () => {
    const id = newId()
    await syncSource(id, [1])
    await store.query(
      `update sources set deleted_at = now(), state = 'stopping', synced_txids = array[48::bigint]
        where id = $1`,
      [id],
    )
    await expect(awaitSourceRemoval(store, id, 47, 50, 50)).resolves.toBe(
      'pending',
    )
  })

  it('fails clearly when the deletion never reaches the store', async () => {
    const id = newId()
    // Still as it was before the deletion: no deleted_at, no txid of it.
    await syncSource(id, [39])
    const error = await awaitSourceRemoval(store, id, 40, 50, 50).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(TxidTimeoutError)
  })

  // A source whose removal failed already reads as failed: only its going shows a forget.
  it('waits for a forgotten source to go, not for its failed state', async () => {
    const id = newId()
    await syncSource(id, [1])
    await store.query(
      `update sources set deleted_at = now(), state = 'error' where id = $1`,
      [id],
    )
    const early = await awaitSourceForgotten(store, id, 50, 100).catch(
      (e: unknown) => e,
    )
    expect(early).toBeInstanceOf(TxidTimeoutError)
    const waiting = awaitSourceForgotten(store, id, 50)
    await remove(id)
    await expect(waiting).resolves.toBeUndefined()
  })
})
