// A source's live-shapes stream never asks into the 404 of a source the store saw go
// (live-shapes-fetch.ts): the store's word on the source, read on real PGlite with the shipped
// client schema, decides each request.
import { PGlite } from '@electric-sql/pglite'
import { live } from '@electric-sql/pglite/live'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { migrateLocal } from '../../src/app/db/shared/migrations.ts'
import {
  liveShapesFetch,
  sourceInStore,
  type SourceInStore,
  type SourceStatus,
} from '../../src/app/db/worker/live-shapes-fetch.ts'

const deleteAnswer = [
  { headers: { operation: 'delete' }, value: { handle: 'h1' } },
]
const insertAnswer = [
  { headers: { operation: 'insert' }, value: { handle: 'h2' } },
]
const reply = (messages: unknown[]) =>
  Promise.resolve(new Response(JSON.stringify(messages)))

/** A store that says `status`, never sees a change, and sees the row go only if told. */
type Mocked = ReturnType<typeof vi.fn>

function fakeStore(
  status: SourceStatus,
  gone = false,
): SourceInStore & {
  status: Mocked
  changedAfter: Mocked
  goneWithin: Mocked
} {
  return {
    status: vi.fn(() => Promise.resolve(status)),
    changedAfter: vi.fn(() => new Promise<void>(() => {})),
    goneWithin: vi.fn(() => Promise.resolve(gone)),
  }
}

/**
 * The request, once the store has been asked what `asked` says, waits (asks nothing) until
 * the stream stops it. The fetch ignores the abort: a request made at any point answers, and
 * the test fails.
 */
async function neverAsks(
  client: typeof fetch,
  fetchMock: () => unknown,
  asked: Mocked,
) {
  const aborter = new AbortController()
  const next = client('/v1/source-shapes', { signal: aborter.signal })
  await vi.waitFor(() => expect(asked).toHaveBeenCalled())
  aborter.abort()
  await expect(next).rejects.toThrow()
  expect(fetchMock).not.toHaveBeenCalled()
}

describe('liveShapesFetch', () => {
  it('asks for a source the store holds, answer after answer', async () => {
    const fetchMock = vi.fn(() => reply(insertAnswer))
    const client = liveShapesFetch(fetchMock, fakeStore({ kind: 'present' }))
    await client('/v1/source-shapes')
    await client('/v1/source-shapes')
    expect(fetchMock).toHaveBeenCalledTimes(2)
  })

  it('never asks for a source no longer in the store', async () => {
    const fetchMock = vi.fn(() => reply([]))
    const store = fakeStore({ kind: 'gone' })
    await neverAsks(liveShapesFetch(fetchMock, store), fetchMock, store.status)
  })

  it('waits while the source is being removed, for its row to change again', async () => {
    const fetchMock = vi.fn(() => reply([]))
    const store = fakeStore({ kind: 'removing', txid: 42 })
    await neverAsks(
      liveShapesFetch(fetchMock, store),
      fetchMock,
      store.changedAfter,
    )
    expect(store.changedAfter).toHaveBeenCalledWith(42)
  })

  it('after an answer that deletes rows, asks nothing more once the source has gone', async () => {
    const fetchMock = vi.fn(() => reply(deleteAnswer))
    const store = fakeStore({ kind: 'present' }, true)
    const client = liveShapesFetch(fetchMock, store)
    await client('/v1/source-shapes')
    fetchMock.mockClear()
    await neverAsks(client, fetchMock, store.goneWithin)
  })

  it('after an answer that deletes rows of a source that stays (a shape rotated), asks again', async () => {
    const fetchMock = vi.fn(() => reply(deleteAnswer))
    const client = liveShapesFetch(
      fetchMock,
      fakeStore({ kind: 'present' }, false),
    )
    await client('/v1/source-shapes')
    await client('/v1/source-shapes')
    expect(fetchMock).toHaveBeenCalledTimes(2)
  })
})

describe('sourceInStore', { timeout: 60_000 }, () => {
  const open = () => PGlite.create({ extensions: { live } })
  let store: Awaited<ReturnType<typeof open>>
  const id = '00000000-0000-4000-8000-000000000001'

  beforeAll(async () => {
    store = await open()
    await migrateLocal(store)
  }, 120_000)
  afterAll(() => store.close())

  it('tells a source present, being removed (with its last txid), failed to remove, gone', async () => {
    const source = sourceInStore(store, id)
    expect(await source.status()).toEqual({ kind: 'gone' })
    await store.query(
      `insert into sources (id, team_id, state, region, connection_url, source_secret,
                            created_at, updated_at, synced_txids)
       values ($1, '00000000-0000-4000-8000-0000000000aa', 'active', 'us-east-1',
               'postgres://db', 'secret', now(), now(), array[5::bigint])`,
      [id],
    )
    expect(await source.status()).toEqual({ kind: 'present' })
    await store.query(
      `update sources set deleted_at = now(), synced_txids = array[7::bigint, 9::bigint]
        where id = $1`,
      [id],
    )
    expect(await source.status()).toEqual({ kind: 'removing', txid: 9 })

    const changed = source.changedAfter(9)
    await store.query(
      `update sources set state = 'delete_failed', synced_txids = array[10::bigint]
        where id = $1`,
      [id],
    )
    await expect(changed).resolves.toBe(true)
    expect(await source.status()).toEqual({ kind: 'present' })

    expect(await source.goneWithin(10)).toBe(false)
    const gone = source.goneWithin(10_000)
    await store.query('delete from sources where id = $1', [id])
    await expect(gone).resolves.toBe(true)
    expect(await source.status()).toEqual({ kind: 'gone' })
  })
})
