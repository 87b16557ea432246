// How shape answers cache, as Electric's do (docs/protocol.md, "Answers"): a shape's first answer
// never changes once cached. Raw HTTP against the engine's own listener.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'
import { waitUntil } from '../support/wait.ts'

let source: TestDatabase
let engine: TestEngine

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(`create table notes (id int primary key, body text)`)
  await source.db.query(
    `insert into notes select i, 'row ' || i from generate_series(1, 20) i`,
  )
  engine = await startTestEngine(source.url)
}, 60_000)

afterAll(async () => {
  await engine?.destroy()
  await source?.drop()
})

/** The shape `id >= from` of notes: its query. */
const shapeQuery = (from: number) =>
  `table=notes&where=${encodeURIComponent(`id >= ${from}`)}`

const get = (query: string, init?: RequestInit) =>
  fetch(`${engine.shapeUrl}?${query}`, init)

type Message = {
  key?: string
  headers: {
    operation?: string
    control?: string
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
