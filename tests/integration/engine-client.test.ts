// The official Electric TypeScript client, unmodified, syncing from the engine.
import {
  Shape,
  ShapeStream,
  type Row,
  type ShapeStreamOptions,
} from '@electric-sql/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'

let source: TestDatabase
let engine: TestEngine
const streams: AbortController[] = []

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(`
    create table items (id int primary key, title text, n int, team text, tags text[]);
    create table moves (id int primary key, status text not null, note text)`)
  engine = await startTestEngine(source.url)
}, 60_000)

afterAll(async () => {
  for (const c of streams) c.abort()
  await engine?.destroy()
  await source?.drop()
})

function shapeOf(params: ShapeStreamOptions['params'], extra: object = {}) {
  const aborter = new AbortController()
  streams.push(aborter)
  const stream = new ShapeStream({
    url: engine.shapeUrl,
    params,
    signal: aborter.signal,
    ...extra,
  })
  return new Shape(stream)
}

const byId = (rows: Row[]) =>
  [...rows].sort((a, b) => Number(a.id) - Number(b.id))

describe('the official client', () => {
  it('syncs the initial rows, then inserts, updates and deletes live', async () => {
    await source.db.query(
      `insert into items values (1, 'one', 1, 'a', '{x,y}'), (2, 'two', null, 'b', '{}')`,
    )
    const shape = shapeOf({ table: 'items' })
    expect(byId(await shape.rows)).toEqual([
      { id: 1, title: 'one', n: 1, team: 'a', tags: ['x', 'y'] },
      { id: 2, title: 'two', n: null, team: 'b', tags: [] },
    ])
    await source.db.query(`insert into items values (3, 'three', 3, 'a', null)`)
    await source.db.query(`update items set title = 'uno' where id = 1`)
    await source.db.query(`delete from items where id = 2`)
    await expect
      .poll(() => byId(shape.currentRows).map((r) => [r.id, r.title]))
      .toEqual([
        [1, 'uno'],
        [3, 'three'],
      ])
  })

  it('filters with a where clause and params, and moves rows in and out', async () => {
    await source.db.query(
      `insert into moves values (1, 'open', 'a'), (2, 'closed', 'b'), (3, 'open', null)`,
    )
    const shape = shapeOf({
      table: 'moves',
      where: 'status = $1',
      params: ['open'],
    })
    expect(byId(await shape.rows).map((r) => r.id)).toEqual([1, 3])
    await source.db.query(`update moves set status = 'open' where id = 2`)
    await source.db.query(`update moves set status = 'closed' where id = 1`)
    await expect
      .poll(() => byId(shape.currentRows).map((r) => r.id))
      .toEqual([2, 3])
    // A row moved in arrives whole.
    expect(shape.currentRows.find((r) => r.id === 2)).toEqual({
      id: 2,
      status: 'open',
      note: 'b',
    })
  })

  it('turns a primary-key change into a delete of the old key and an insert of the new', async () => {
    await source.db.query(
      `create table renumbered (id int primary key, label text)`,
    )
    await source.db.query(
      `insert into renumbered values (1, 'one'), (2, 'two')`,
    )
    const shape = shapeOf({ table: 'renumbered' })
    expect(byId(await shape.rows).map((r) => r.id)).toEqual([1, 2])
    await source.db.query(`update renumbered set id = 10 where id = 1`)
    await expect
      .poll(() => byId(shape.currentRows))
      .toEqual([
        { id: 2, label: 'two' },
        { id: 10, label: 'one' },
      ])
  })

  it('filters on an enum column by its labels', async () => {
    await source.db.query(`
      create type mood as enum ('sad', 'ok', 'happy');
      create table moods (id int primary key, mood mood);
      insert into moods values (1, 'happy'), (2, 'sad'), (3, null)`)
    const shape = shapeOf({ table: 'moods', where: `mood = 'happy'` })
    expect(await shape.rows).toEqual([{ id: 1, mood: 'happy' }])
    await source.db.query(`update moods set mood = 'happy' where id = 2`)
    await expect
      .poll(() => byId(shape.currentRows).map((r) => r.id))
      .toEqual([1, 2])
  })

  it('sends only the requested columns', async () => {
    const shape = shapeOf({ table: 'items', columns: ['id', 'title'] })
    const rows = await shape.rows
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows)
      expect(Object.keys(row).sort()).toEqual(['id', 'title'])
  })

  it('sends whole rows and old values with replica=full', async () => {
    const messages: unknown[] = []
    const aborter = new AbortController()
    streams.push(aborter)
    const stream = new ShapeStream({
      url: engine.shapeUrl,
      params: { table: 'items', replica: 'full', where: 'id = 1' },
      signal: aborter.signal,
    })
    stream.subscribe((batch) => {
      messages.push(...batch)
    })
    await expect.poll(() => stream.isUpToDate).toBe(true)
    await source.db.query(`update items set n = 42 where id = 1`)
    await expect
      .poll(() =>
        messages.find(
          (m) =>
            (m as { headers: { operation?: string } }).headers.operation ===
            'update',
        ),
      )
      .toMatchObject({
        value: { id: 1, title: 'uno', n: 42, team: 'a' },
        old_value: { n: 1 },
        headers: { operation: 'update' },
      })
  })

  it('answers a long-poll as soon as a change commits', async () => {
    const first = await fetch(`${engine.shapeUrl}?table=items&offset=-1`)
    const handle = first.headers.get('electric-handle') ?? ''
    let offset = first.headers.get('electric-offset') ?? ''
    const tail = await fetch(
      `${engine.shapeUrl}?table=items&offset=${offset}&handle=${handle}`,
    )
    offset = tail.headers.get('electric-offset') ?? ''
    expect(tail.headers.has('electric-up-to-date')).toBe(true)
    const live = fetch(
      `${engine.shapeUrl}?table=items&offset=${offset}&handle=${handle}&live=true`,
    )
    await source.db.query(`insert into items values (10, 'ten', 10, 'c', null)`)
    const response = await live
    expect(response.status).toBe(200)
    expect(response.headers.get('electric-cursor')).toMatch(/^\d+$/)
    const body = (await response.json()) as Array<{
      value?: { id: string }
      headers: object
    }>
    expect(body[0]?.value?.id).toBe('10')
    expect(body.at(-1)?.headers).toMatchObject({ control: 'up-to-date' })
  })

  it('lets caches keep the first answer for long, one that reaches the tip Electric’s minute', async () => {
    const first = await fetch(`${engine.shapeUrl}?table=items&offset=-1`)
    expect(first.headers.get('cache-control')).toMatch(
      /^public, max-age=604800/,
    )
    const handle = first.headers.get('electric-handle') ?? ''
    const offset = first.headers.get('electric-offset') ?? ''
    const tail = await fetch(
      `${engine.shapeUrl}?table=items&offset=${offset}&handle=${handle}`,
    )
    expect(tail.headers.has('electric-up-to-date')).toBe(true)
    // ELECTRIC_CACHE_MAX_AGE and ELECTRIC_CACHE_STALE_AGE's defaults; the gateway pins the tip
    // to a second instead (engine-electric-cache.test.ts).
    expect(tail.headers.get('cache-control')).toBe(
      'public, max-age=60, stale-while-revalidate=300',
    )
  })

  it('answers offset=now at once with an up-to-date and the latest offset', async () => {
    const first = await fetch(`${engine.shapeUrl}?table=items&offset=-1`)
    const handle = first.headers.get('electric-handle') ?? ''
    const now = await fetch(
      `${engine.shapeUrl}?table=items&offset=now&handle=${handle}`,
    )
    expect(now.status).toBe(200)
    expect(now.headers.has('electric-up-to-date')).toBe(true)
    expect(now.headers.get('electric-schema')).toBeTruthy()
    const body = (await now.json()) as Array<{
      headers: { control: string; global_last_seen_lsn: string }
    }>
    expect(body).toHaveLength(1)
    expect(body[0]?.headers.control).toBe('up-to-date')
    expect(body[0]?.headers.global_last_seen_lsn).toMatch(/^\d+$/)
  })

  it('sends 409 after DELETE /v1/shape and the client converges on the new shape', async () => {
    const shape = shapeOf({ table: 'items', where: 'id = 3' })
    expect((await shape.rows).map((r) => r.id)).toEqual([3])
    const handle = shape.handle ?? ''
    const deleted = await fetch(
      // By handle alone: with `table=items` the definition (no where) names another shape, a 400.
      `${engine.shapeUrl}?handle=${handle}`,
      { method: 'DELETE' },
    )
    expect(deleted.status).toBe(202)
    const stale = await fetch(
      `${engine.shapeUrl}?table=items&where=id%20%3D%203&offset=0_0&handle=${handle}`,
    )
    expect(stale.status).toBe(409)
    expect(stale.headers.get('electric-handle')).not.toBe(handle)
    await source.db.query(`update items set title = 'drei' where id = 3`)
    await expect
      .poll(() => shape.currentRows.map((r) => r.title))
      .toEqual(['drei'])
  })

  it('refuses a where clause outside the subset with a 400 naming the location', async () => {
    const bad = await fetch(
      `${engine.shapeUrl}?table=items&offset=-1&where=${encodeURIComponent('id = = 1')}`,
    )
    expect(bad.status).toBe(400)
    const body = (await bad.json()) as { errors: { where: string[] } }
    expect(body.errors.where[0]).toMatch(/^At location \d+: syntax error/)
    const sub = await fetch(
      `${engine.shapeUrl}?table=items&offset=-1&where=${encodeURIComponent('id in (select 1)')}`,
    )
    expect(sub.status).toBe(400)
  })

  it('answers unknown tables and bad offsets with Electric-style 400s', async () => {
    const missing = await fetch(`${engine.shapeUrl}?table=nope&offset=-1`)
    expect(missing.status).toBe(400)
    expect(await missing.json()).toMatchObject({
      message: 'Invalid request',
      errors: { table: [expect.stringContaining('does not exist')] },
    })
    const offset = await fetch(`${engine.shapeUrl}?table=items&offset=abc`)
    expect(await offset.json()).toEqual({
      message: 'Invalid request',
      errors: { offset: ['has invalid format'] },
    })
    const handle = await fetch(`${engine.shapeUrl}?table=items&offset=0_0`)
    expect(await handle.json()).toEqual({
      message: 'Invalid request',
      errors: { handle: ["can't be blank when offset != -1"] },
    })
  })
})
