// The newer parts of Electric's protocol (docs/protocol.md): offset=now, ETag/304 and the cache
// headers per case, with the official client and with raw fetch where headers matter.
import { ShapeStream, type Message, type Row } from '@electric-sql/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'

let source: TestDatabase
let engine: TestEngine
const aborters: AbortController[] = []

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(`create table notes (id int primary key, body text)`)
  await source.db.query(`insert into notes values (1, 'a'), (2, 'b')`)
  engine = await startTestEngine(source.url)
}, 60_000)

afterAll(async () => {
  for (const a of aborters) a.abort()
  await engine?.destroy()
  await source?.drop()
})

const get = (query: string, init?: RequestInit) =>
  fetch(`${engine.shapeUrl}?table=notes&${query}`, init)

/** Pages from -1 to the tip without live: the handle and the offset a client would hold. */
async function readToTip(): Promise<{ handle: string; offset: string }> {
  let response = await get('offset=-1')
  const handle = response.headers.get('electric-handle') ?? ''
  // Bounded: the table holds a few rows, a page or two.
  for (let i = 0; i < 10; i++) {
    const offset = response.headers.get('electric-offset') ?? ''
    if (response.headers.has('electric-up-to-date')) return { handle, offset }
    response = await get(`offset=${offset}&handle=${handle}`)
  }
  throw new Error('never reached the tip')
}

describe('offset=now', () => {
  it('answers at once with up-to-date, no data and the last offset, dropping any handle', async () => {
    const tip = await readToTip()
    for (const handle of [
      '',
      `&handle=${tip.handle}`,
      '&handle=stale-handle',
    ]) {
      const now = await get(`offset=now${handle}`)
      expect(now.status).toBe(200)
      expect(now.headers.get('electric-handle')).toBe(tip.handle)
      expect(now.headers.get('electric-offset')).toBe(tip.offset)
      expect(now.headers.get('electric-has-data')).toBe('false')
      expect(now.headers.has('electric-up-to-date')).toBe(true)
      const body = (await now.json()) as Array<{ headers: object }>
      expect(body).toEqual([
        {
          headers: {
            control: 'up-to-date',
            global_last_seen_lsn: expect.stringMatching(/^\d+$/),
          },
        },
      ])
    }
  })

  it('lets the official client start at now and see only later changes', async () => {
    const aborter = new AbortController()
    aborters.push(aborter)
    const stream = new ShapeStream<Row>({
      url: engine.shapeUrl,
      params: { table: 'notes' },
      offset: 'now',
      signal: aborter.signal,
    })
    const seen: Message<Row>[] = []
    let upToDate = false
    stream.subscribe((messages) => {
      seen.push(...messages)
      if (messages.some((m) => 'control' in m.headers)) upToDate = true
    })
    await expect.poll(() => upToDate).toBe(true)
    await source.db.query(`insert into notes values (3, 'c')`)
    await expect
      .poll(() =>
        seen.flatMap((m) =>
          'key' in m ? [[m.headers.operation, m.value.id]] : [],
        ),
      )
      .toEqual([['insert', 3]])
  })
})

describe('ETag and 304', () => {
  it('revalidates a chunk: the same ETag in If-None-Match (alone or in a list) gets an empty 304', async () => {
    const first = await get('offset=-1')
    const etag = first.headers.get('etag') ?? ''
    const handle = first.headers.get('electric-handle')
    expect(etag).toBe(`"${handle}:-1:${first.headers.get('electric-offset')}"`)
    for (const sent of [etag, `"other", ${etag}`, etag.slice(1, -1)]) {
      const again = await get('offset=-1', {
        headers: { 'if-none-match': sent },
      })
      expect(again.status).toBe(304)
      expect(await again.text()).toBe('')
      expect(again.headers.get('etag')).toBe(etag)
      expect(again.headers.get('electric-handle')).toBe(handle)
    }
    const changed = await get('offset=-1', {
      headers: { 'if-none-match': '"something-else"' },
    })
    expect(changed.status).toBe(200)
  })

  it('never revalidates an answer without changes: its ETag carries a monotonic part', async () => {
    const one = await get('offset=now')
    const etag = one.headers.get('etag') ?? ''
    expect(etag).toMatch(/^".+:now:\d+_\d+:\d+"$/)
    const two = await get('offset=now', { headers: { 'if-none-match': etag } })
    expect(two.status).toBe(200)
    expect(two.headers.get('etag')).not.toBe(etag)
  })
})

describe('cache headers', () => {
  it('lets a cache collapse live requests: short max-age and a cursor past the one sent', async () => {
    const tip = await readToTip()
    await source.db.query(`insert into notes values (10, 'live')`)
    // A cursor far ahead of the clock: the answer must still move past it, by at most an hour.
    const sent = 10_000_000_000
    const live = await get(
      `offset=${tip.offset}&handle=${tip.handle}&live=true&cursor=${sent}`,
    )
    expect(live.status).toBe(200)
    expect(live.headers.get('cache-control')).toBe(
      'public, max-age=5, stale-while-revalidate=5',
    )
    const cursor = Number(live.headers.get('electric-cursor'))
    expect(cursor).toBeGreaterThan(sent)
    expect(cursor).toBeLessThanOrEqual(sent + 3600)
    // The same request answered twice (a cache that lets it through again) names the same
    // next URL, so the clients of both answers still share their next request.
    const again = await get(
      `offset=${tip.offset}&handle=${tip.handle}&live=true&cursor=${sent}`,
    )
    expect(again.headers.get('electric-cursor')).toBe(String(cursor))
    const fresh = await get(
      `offset=${tip.offset}&handle=${tip.handle}&live=true`,
    )
    // Without a cursor: the next boundary of the long-poll interval, in seconds since 2024-10-09.
    const next = Number(fresh.headers.get('electric-cursor'))
    expect(next % 20).toBe(0)
    const since = (Date.now() - Date.UTC(2024, 9, 9)) / 1000
    expect(next).toBeGreaterThanOrEqual(Math.floor(since))
    expect(next).toBeLessThanOrEqual(Math.ceil(since) + 20)
  })

  it('lets a cache keep a 409 briefly, with the new handle, and never keep an error', async () => {
    const tip = await readToTip()
    const stale = await get(`offset=${tip.offset}&handle=gone-handle`)
    expect(stale.status).toBe(409)
    expect(stale.headers.get('cache-control')).toBe(
      'public, max-age=60, must-revalidate',
    )
    expect(stale.headers.get('electric-handle')).toBe(tip.handle)
    expect(await stale.json()).toEqual([
      { headers: { control: 'must-refetch' } },
    ])
    const bad = await get('offset=abc')
    expect(bad.status).toBe(400)
    expect(bad.headers.get('cache-control')).toBe('no-store')
    expect(bad.headers.get('surrogate-control')).toBe('no-store')
  })
})

describe('DELETE /v1/shape', () => {
  const remove = (query: string) =>
    fetch(`${engine.shapeUrl}?${query}`, { method: 'DELETE' })
  const where = (clause: string) => `where=${encodeURIComponent(clause)}`

  it('deletes by definition, by handle, or both (202, not cached); the next read is a new shape', async () => {
    for (const [i, by] of ['definition', 'handle', 'both'].entries()) {
      const definition = `table=notes&${where(`id > ${100 + i}`)}`
      const first = await fetch(`${engine.shapeUrl}?${definition}&offset=-1`)
      const handle = first.headers.get('electric-handle') ?? ''
      const query =
        by === 'definition'
          ? definition
          : by === 'handle'
            ? `handle=${handle}`
            : `${definition}&handle=${handle}`
      const deleted = await remove(query)
      expect(deleted.status).toBe(202)
      expect(deleted.headers.get('cache-control')).toBe('no-cache')
      const again = await fetch(`${engine.shapeUrl}?${definition}&offset=-1`)
      expect(again.headers.get('electric-handle')).not.toBe(handle)
    }
  })

  it('refuses a handle that is not the definition’s shape (400) and an unknown shape (404)', async () => {
    const definition = `table=notes&${where('id > 200')}`
    const live = await fetch(`${engine.shapeUrl}?${definition}&offset=-1`)
    const other = await fetch(`${engine.shapeUrl}?table=notes&offset=-1`)
    const mismatch = await remove(
      `${definition}&handle=${other.headers.get('electric-handle')}`,
    )
    expect(mismatch.status).toBe(400)
    expect(await mismatch.json()).toEqual({
      message: expect.stringMatching(
        /^The specified shape definition and handle do not match/,
      ),
    })
    expect(mismatch.headers.get('cache-control')).toBe('no-store')
    // Neither shape went away.
    const still = await fetch(`${engine.shapeUrl}?${definition}&offset=-1`)
    expect(still.headers.get('electric-handle')).toBe(
      live.headers.get('electric-handle'),
    )
    for (const query of ['handle=nope', `table=notes&${where('id > 999')}`]) {
      const missing = await remove(query)
      expect(missing.status).toBe(404)
      expect(await missing.json()).toEqual({
        message: 'No existing shape found',
      })
    }
  })
})

describe('a client that goes away', () => {
  it('frees its long-poll at once: the shape stops holding a waiter for it', async () => {
    // A shape of its own: other tests' clients long-poll the whole table.
    const where = `where=${encodeURIComponent('id > 1000')}`
    const first = await get(`offset=-1&${where}`)
    const handle = first.headers.get('electric-handle') ?? ''
    const tip = await get(
      `offset=${first.headers.get('electric-offset')}&handle=${handle}&${where}`,
    )
    expect(tip.headers.has('electric-up-to-date')).toBe(true)
    const shape = engine.database.byHandle(handle)
    const aborter = new AbortController()
    const live = get(
      `offset=${tip.headers.get('electric-offset')}&handle=${handle}&${where}&live=true`,
      { signal: aborter.signal },
    ).catch((error: Error) => error)
    await expect.poll(() => shape?.waitingRequests).toBe(1)
    aborter.abort()
    expect(await live).toBeInstanceOf(Error)
    // Long before the long-poll's 20 s.
    await expect.poll(() => shape?.waitingRequests).toBe(0)
  })
})

describe('columns, checked against the table as Electric checks them', () => {
  it('refuses a column the table does not have, naming it (400)', async () => {
    const response = await get('offset=-1&columns=id,body,nope')
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({
      errors: {
        columns: ['The following columns are not found on the table: nope'],
      },
    })
  })

  it('refuses a list without the primary key (400), named before unknown columns', async () => {
    const response = await get('offset=-1&columns=body,nope')
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({
      errors: {
        columns: [
          'The list of columns must include all primary key columns, missing: id',
        ],
      },
    })
  })

  it('serves a list that holds the key', async () => {
    const response = await get('offset=-1&columns=id,body')
    expect(response.status).toBe(200)
    const rows = ((await response.json()) as Array<{ value?: object }>)
      .map((m) => m.value)
      .filter(Boolean)
    expect(rows).toContainEqual({ id: '1', body: 'a' })
  })
})
