// How shape answers cache, as Electric's do (docs/protocol.md, "Answers"): a shape's first answer
// never changes once cached, every case's cache-control with the configured ages, ETags that
// revalidate at the tip but never for an empty live answer, and offsets past the log's end held
// for half a long-poll, then refused. Raw HTTP against the engine's own listener.
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEngineServer } from '../../src/engine/http/node-listener.ts'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'
import { waitUntil } from '../support/wait.ts'

// Short enough for the holding tests, long enough that a change committed while a request waits
// reaches it before it times out in a loaded run (engine-long-poll.test.ts).
const LONG_POLL_MS = 2_000
const HOLD_MS = LONG_POLL_MS / 2
const MAX_AGE = 7
const STALE_AGE = 11

let source: TestDatabase
let engine: TestEngine
/** A second listener over the same shapes, with a pinned tip (the gateway's setting). */
let pinned: Server
let pinnedUrl: string

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(`create table notes (id int primary key, body text)`)
  await source.db.query(`create table other (id int primary key)`)
  await source.db.query(
    `insert into notes select i, 'row ' || i from generate_series(1, 20) i`,
  )
  engine = await startTestEngine(source.url, {
    longPollMs: LONG_POLL_MS,
    cacheMaxAge: MAX_AGE,
    cacheStaleAge: STALE_AGE,
  })
  pinned = createEngineServer({
    database: engine.database,
    longPollMs: LONG_POLL_MS,
    tipMaxAge: 1,
  })
  await new Promise<void>((resolve) =>
    pinned.listen(0, '127.0.0.1', () => resolve()),
  )
  pinnedUrl = `http://127.0.0.1:${(pinned.address() as AddressInfo).port}/v1/shape`
  // A shape of `other`, so its transactions are replicated and move the global LSN.
  const other = await get('table=other&offset=-1')
  expect(other.status).toBe(200)
}, 60_000)

afterAll(async () => {
  pinned?.closeAllConnections()
  await new Promise((resolve) => pinned?.close(resolve))
  await engine?.destroy()
  await source?.drop()
})

/** The shape `id >= from` of notes: its query, on the engine or the pinned listener. */
const shapeQuery = (from: number) =>
  `table=notes&where=${encodeURIComponent(`id >= ${from}`)}`

const get = (query: string, init?: RequestInit, base = engine.shapeUrl) =>
  fetch(`${base}?${query}`, init)

type Message = {
  key?: string
  headers: {
    operation?: string
    control?: string
    global_last_seen_lsn?: string
  }
}

/** Pages from -1 to the tip without live: the handle and the offset a client would then hold. */
async function tipOf(from: number) {
  const shape = shapeQuery(from)
  let response = await get(`${shape}&offset=-1`)
  const handle = response.headers.get('electric-handle') ?? ''
  // Bounded: a shape of a few rows is a page or two.
  for (let i = 0; i < 10; i++) {
    const offset = response.headers.get('electric-offset') ?? ''
    await response.body?.cancel()
    if (response.headers.has('electric-up-to-date'))
      return { shape, handle, offset, at: `${shape}&handle=${handle}` }
    response = await get(`${shape}&offset=${offset}&handle=${handle}`)
  }
  throw new Error('never reached the tip')
}

/** Waits until the shape's published end has moved past `offset`. */
async function published(shape: string, offset: string) {
  await waitUntil('the change to reach the shape', async () => {
    const now = await get(`${shape}&offset=now`)
    await now.body?.cancel()
    return now.headers.get('electric-offset') !== offset
  })
}

describe('offset=-1', () => {
  it('answers the snapshot alone: the same URL answers the same after writes', async () => {
    const shape = shapeQuery(1)
    const first = await get(`${shape}&offset=-1`)
    const body = await first.text()
    const handle = first.headers.get('electric-handle') ?? ''
    const offset = first.headers.get('electric-offset') ?? ''
    // It ends inside the snapshot (at its end here: the snapshot fits a chunk), never past it.
    expect(offset).toMatch(/^0_/)
    expect(first.headers.has('electric-up-to-date')).toBe(false)
    expect(first.headers.get('cache-control')).toBe(
      'public, max-age=604800, s-maxage=3600, stale-while-revalidate=2629746',
    )
    await source.db.query(`insert into notes values (21, 'later')`)
    await published(shape, offset)
    const again = await get(`${shape}&offset=-1`)
    expect(await again.text()).toBe(body)
    expect(again.headers.get('electric-offset')).toBe(offset)
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'))
    // A cache holding the first answer revalidates it.
    const revalidated = await get(`${shape}&offset=-1`, {
      headers: { 'if-none-match': first.headers.get('etag') ?? '' },
    })
    expect(revalidated.status).toBe(304)
    // The write comes next, from the first answer's offset.
    const next = await get(`${shape}&offset=${offset}&handle=${handle}`)
    const messages = (await next.json()) as Message[]
    expect(
      messages.filter((m) => m.key).map((m) => m.headers.operation),
    ).toEqual(['insert'])
  })

  it('answers an op past the snapshot’s end from the snapshot’s end, as Electric does', async () => {
    const tip = await tipOf(15)
    await source.db.query(`insert into notes values (22, 'after')`)
    await published(tip.shape, tip.offset)
    const past = await get(`${tip.at}&offset=0_999999999`)
    expect(past.status).toBe(200)
    const messages = (await past.json()) as Message[]
    expect(messages.filter((m) => m.key).map((m) => m.key)).toEqual([
      '"public"."notes"/"22"',
    ])
  })
})

describe('cache-control', () => {
  it('keeps every non-live answer the configured ages, at the tip and for offset=now too', async () => {
    const tip = await tipOf(2)
    const atTip = await get(`${tip.at}&offset=${tip.offset}`)
    const ages = `public, max-age=${MAX_AGE}, stale-while-revalidate=${STALE_AGE}`
    expect(atTip.headers.has('electric-up-to-date')).toBe(true)
    expect(atTip.headers.get('cache-control')).toBe(ages)
    const now = await get(`${tip.shape}&offset=now`)
    expect(now.headers.get('cache-control')).toBe(ages)
    const live = await get(`${tip.at}&offset=${tip.offset}&live=true`)
    expect(live.headers.get('cache-control')).toBe(
      'public, max-age=5, stale-while-revalidate=5',
    )
    const moved = await get(`${tip.shape}&offset=${tip.offset}&handle=gone`)
    expect(moved.status).toBe(409)
    expect(moved.headers.get('cache-control')).toBe(
      'public, max-age=60, must-revalidate',
    )
    const bad = await get(`${tip.shape}&offset=x`)
    expect(bad.status).toBe(400)
    expect(bad.headers.get('cache-control')).toBe('no-store')
    expect(bad.headers.get('surrogate-control')).toBe('no-store')
  })

  it('keeps a pinned tip a second and never stale, where the gateway serves', async () => {
    const tip = await tipOf(3)
    const atTip = await get(`${tip.at}&offset=${tip.offset}`, {}, pinnedUrl)
    expect(atTip.headers.get('cache-control')).toBe('public, max-age=1')
    const now = await get(`${tip.shape}&offset=now`, {}, pinnedUrl)
    expect(now.headers.get('cache-control')).toBe('public, max-age=1')
    const first = await get(`${tip.shape}&offset=-1`, {}, pinnedUrl)
    expect(first.headers.get('cache-control')).toMatch(
      /^public, max-age=604800/,
    )
  })
})

describe('ETag', () => {
  it('revalidates a non-live answer at the tip: it has data as Electric says, and a 304 while nothing moved', async () => {
    const tip = await tipOf(4)
    const atTip = await get(`${tip.at}&offset=${tip.offset}`)
    expect(atTip.headers.get('electric-has-data')).toBe('true')
    const etag = atTip.headers.get('etag') ?? ''
    expect(etag).toBe(`"${tip.handle}:${tip.offset}:${tip.offset}"`)
    const again = await get(`${tip.at}&offset=${tip.offset}`, {
      headers: { 'if-none-match': etag },
    })
    expect(again.status).toBe(304)
    expect(again.headers.get('cache-control')).toBe(
      atTip.headers.get('cache-control'),
    )
  })

  it('never revalidates an empty live answer (a long-poll that timed out)', async () => {
    const tip = await tipOf(5)
    const live = await get(`${tip.at}&offset=${tip.offset}&live=true`)
    expect(live.headers.get('electric-has-data')).toBe('false')
    const etag = live.headers.get('etag') ?? ''
    const again = await get(`${tip.at}&offset=${tip.offset}&live=true`, {
      headers: { 'if-none-match': etag },
    })
    expect(again.status).toBe(200)
    expect(again.headers.get('etag')).not.toBe(etag)
  })

  it('names the up-to-date’s LSN at a pinned tip, so a 304 never hands out an old one', async () => {
    const tip = await tipOf(6)
    const at = `${tip.at}&offset=${tip.offset}`
    const first = await get(at, {}, pinnedUrl)
    const etag = first.headers.get('etag') ?? ''
    const [upToDate] = (await first.json()) as Message[]
    const lsn = upToDate?.headers.global_last_seen_lsn ?? ''
    expect(etag).toBe(`"${tip.handle}:${tip.offset}:${tip.offset}:${lsn}"`)
    const same = await get(
      at,
      { headers: { 'if-none-match': etag } },
      pinnedUrl,
    )
    expect(same.status).toBe(304)
    // Another table's write moves the global LSN: the body changes, and so does its ETag.
    await source.db.query(`insert into other values (1)`)
    await waitUntil(
      'the global LSN to move',
      () => engine.database.globalLsn > BigInt(lsn),
    )
    const moved = await get(
      at,
      { headers: { 'if-none-match': etag } },
      pinnedUrl,
    )
    expect(moved.status).toBe(200)
    expect(moved.headers.get('etag')).not.toBe(etag)
  })
})

describe('offsets past the log', () => {
  const refusal = {
    message: 'Invalid request',
    errors: { offset: ['out of bounds for this shape'] },
  }

  it('holds one for half a long-poll, then answers 400: live or not, SSE too', async () => {
    const tip = await tipOf(7)
    const queries = ['99999999999_0', '99999999999_inf', '99999999999_5']
      .flatMap((offset) => [
        `offset=${offset}`,
        `offset=${offset}&live=true`,
        `offset=${offset}&live=true&live_sse=true`,
      ])
      .map((query) => `${tip.at}&${query}`)
    // All held at once: one hold's time for them all.
    const started = performance.now()
    const responses = await Promise.all(queries.map((query) => get(query)))
    expect(performance.now() - started).toBeGreaterThanOrEqual(HOLD_MS - 50)
    for (const response of responses) {
      expect(response.status).toBe(400)
      expect(response.headers.get('cache-control')).toBe('no-store')
      expect(response.headers.has('etag')).toBe(false)
      expect(await response.json()).toEqual(refusal)
    }
  })

  it('refuses an op past the last transaction’s end', async () => {
    const tip = await tipOf(30)
    await source.db.query(`insert into notes values (30, 'x')`)
    await published(tip.shape, tip.offset)
    const next = await get(`${tip.at}&offset=${tip.offset}`)
    await next.body?.cancel()
    const [tx, op] = (next.headers.get('electric-offset') ?? '').split('_')
    expect(Number(tx)).toBeGreaterThan(0)
    const response = await get(`${tip.at}&offset=${tx}_${Number(op) + 1}`)
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual(refusal)
  })

  it('answers one the log reaches while it is held', async () => {
    const tip = await tipOf(40)
    const { rows } = await source.db.query<{ lsn: string }>(
      `select (pg_current_wal_lsn() - '0/0')::text as lsn`,
    )
    const ahead = `${rows[0]?.lsn}_1`
    const held = get(`${tip.at}&offset=${ahead}`)
    await waitUntil(
      'the request to be held',
      () => engine.database.byHandle(tip.handle)?.waitingRequests === 1,
    )
    await source.db.query(`insert into notes values (41, 'arrives')`)
    const response = await held
    expect(response.status).toBe(200)
    const messages = (await response.json()) as Message[]
    expect(messages.filter((m) => m.key).map((m) => m.key)).toEqual([
      '"public"."notes"/"41"',
    ])
    expect(response.headers.has('electric-up-to-date')).toBe(true)
  })

  it('takes `<lsn>_0` up to the global LSN as in the log: where an SSE client resumes', async () => {
    const tip = await tipOf(50)
    await source.db.query(`insert into other values (2)`)
    const [tx] = tip.offset.split('_')
    await waitUntil(
      'the global LSN to pass the shape',
      () => engine.database.globalLsn > BigInt(tx ?? 0),
    )
    const resume = `${engine.database.globalLsn}_0`
    const started = performance.now()
    const response = await get(`${tip.at}&offset=${resume}`)
    expect(performance.now() - started).toBeLessThan(HOLD_MS)
    expect(response.status).toBe(200)
    expect(response.headers.has('electric-up-to-date')).toBe(true)
  })
})
