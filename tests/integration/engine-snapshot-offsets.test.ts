// Snapshot offsets numbered as Electric numbers them (docs/protocol.md "Snapshot offsets"): a
// snapshot of one chunk ends at 0_0, chunk k at 0_k, and 0_k goes on after that chunk, across
// a restart too; 0_inf, which clients held before, still means past the snapshot.
import { randomBytes } from 'node:crypto'
import { Shape, ShapeStream, type Row } from '@electric-sql/client'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'

let source: TestDatabase
let engine: TestEngine
const id = `test_${randomBytes(4).toString('hex')}`
const aborters: AbortController[] = []

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(
    `create table empty_one (id serial primary key, title text)`,
  )
  await source.db.query(`create table many (id int primary key, body text)`)
  await source.db.query(
    `insert into many select i, repeat(md5(i::text), 4) from generate_series(1, 1000) i`,
  )
  engine = await startTestEngine(source.url, { id, chunkBytes: 10_000 })
}, 60_000)

afterAll(async () => {
  for (const a of aborters) a.abort()
  await engine?.destroy()
  await source?.drop()
})

const get = (query: string) => fetch(`${engine.shapeUrl}?${query}`)

describe('snapshot offsets', () => {
  it('ends an empty snapshot at 0_0, and 0_0 reads the changes after it (as Electric’s client tests read it)', async () => {
    const first = await get('table=empty_one&offset=-1')
    expect(first.headers.get('electric-offset')).toBe('0_0')
    const handle = first.headers.get('electric-handle') ?? ''
    for (let i = 1; i <= 9; i++)
      await source.db.query(`insert into empty_one (title) values ($1)`, [
        `foo${i}`,
      ])
    await vi.waitFor(
      async () => {
        const res = await get(`table=empty_one&offset=0_0&handle=${handle}`)
        const messages = (await res.json()) as unknown[]
        // 9 inserts and up-to-date: no snapshot-end, which ended chunk 0_0.
        expect(messages).toHaveLength(10)
      },
      { timeout: 20_000, interval: 100 },
    )
  })

  it('numbers the chunks 0_0, 0_1, .. and the official client reads every row', async () => {
    const offsets: string[] = []
    let response = await get('table=many&offset=-1')
    const handle = response.headers.get('electric-handle') ?? ''
    for (let i = 0; i < 200; i++) {
      offsets.push(response.headers.get('electric-offset') ?? '')
      if (response.headers.has('electric-up-to-date')) break
      response = await get(
        `table=many&offset=${offsets.at(-1)}&handle=${handle}`,
      )
    }
    expect(offsets.length).toBeGreaterThan(5)
    expect(offsets).toEqual(offsets.map((_, i) => `0_${i}`))

    const aborter = new AbortController()
    aborters.push(aborter)
    const shape = new Shape<Row>(
      new ShapeStream({
        url: engine.shapeUrl,
        params: { table: 'many' },
        signal: aborter.signal,
      }),
    )
    await shape.rows
    await source.db.query(`update many set body = 'changed' where id <= 10`)
    const { rows } = await source.db.query<{ id: number; body: string }>(
      'select id, body from many order by id',
    )
    await vi.waitFor(
      () =>
        expect(
          shape.currentRows
            .map((r) => ({ id: Number(r.id), body: String(r.body) }))
            .sort((a, b) => a.id - b.id),
        ).toEqual(rows),
      { timeout: 20_000, interval: 100 },
    )
  })

  it('keeps the offsets it handed out across a restart, and 0_inf past the snapshot', async () => {
    const first = await get('table=many&offset=-1')
    const handle = first.headers.get('electric-handle') ?? ''
    const third = await get(`table=many&offset=0_2&handle=${handle}`)
    const before = {
      offset: third.headers.get('electric-offset'),
      body: await third.text(),
    }
    const past = await get(`table=many&offset=0_inf&handle=${handle}`)
    const changes = (await past.json()) as Array<{ value?: { body?: string } }>
    expect(changes.filter((m) => m.value?.body === 'changed')).toHaveLength(10)

    await engine.stop()
    engine = await startTestEngine(source.url, {
      id,
      dataDir: engine.dataDir,
      chunkBytes: 10_000,
    })
    const again = await get(`table=many&offset=0_2&handle=${handle}`)
    expect(again.status).toBe(200)
    expect({
      offset: again.headers.get('electric-offset'),
      body: await again.text(),
    }).toEqual(before)
  }, 60_000)
})
