// Log compaction through the engine (docs/protocol.md "Compaction"): after 10,000 updates of one
// row a new client reads about the shape's rows, not their history, and clients that were part
// way through the log (one live, one paging) go on to the rows Postgres has.
import { Shape, ShapeStream, type Row } from '@electric-sql/client'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'

const ROWS = 1_000
let source: TestDatabase
let engine: TestEngine
const aborters: AbortController[] = []

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(
    `create table hot (id int primary key, title text, n int, m int)`,
  )
  await source.db.query(
    `insert into hot select i, repeat(md5(i::text), 3), 0, 0 from generate_series(1, ${ROWS}) i`,
  )
  engine = await startTestEngine(source.url, { chunkBytes: 10_000 })
}, 60_000)

afterAll(async () => {
  for (const a of aborters) a.abort()
  await engine?.destroy()
  await source?.drop()
})

/** `count` updates of row 1, each its own transaction; every third sets `m` too. */
async function update(from: number, count: number) {
  await source.db.query(
    `do $$ begin for i in ${from}..${from + count - 1} loop
       update hot set n = i, m = case when i % 3 = 0 then i else m end where id = 1;
       commit;
     end loop; end $$`,
  )
}

/** The rows as Postgres has them (and as the official client parses them). */
async function postgresRows() {
  const { rows } = await source.db.query<Record<string, unknown>>(
    'select id, title, n, m from hot order by id',
  )
  return rows
}

const sorted = (rows: Row[]) =>
  [...rows].sort((a, b) => Number(a.id) - Number(b.id))

/** An official client following the shape: its rows, and the data messages it read. */
function follow() {
  const aborter = new AbortController()
  aborters.push(aborter)
  const stream = new ShapeStream<Row>({
    url: engine.shapeUrl,
    params: { table: 'hot' },
    signal: aborter.signal,
  })
  const read = { data: 0 }
  stream.subscribe((messages) => {
    read.data += messages.filter((m) => 'key' in m).length
  })
  return { shape: new Shape(stream), read }
}

type Rows = Map<string, Record<string, unknown>>
type Message = { key?: string; value?: object; headers: { operation?: string } }

/** A client speaking the protocol itself: `pages` answers from `offset`, applied to `rows`. */
async function page(
  rows: Rows,
  at: { offset: string; handle: string },
  pages: number,
): Promise<boolean> {
  for (let i = 0; i < pages; i++) {
    const handle = at.handle ? `&handle=${at.handle}` : ''
    const response = await fetch(
      `${engine.shapeUrl}?table=hot&offset=${at.offset}${handle}`,
    )
    expect(response.status).toBe(200)
    for (const m of (await response.json()) as Message[]) {
      if (!m.key) continue
      if (m.headers.operation === 'insert') rows.set(m.key, { ...m.value })
      else if (m.headers.operation === 'update')
        rows.set(m.key, { ...rows.get(m.key), ...m.value })
      else if (m.headers.operation === 'delete') rows.delete(m.key)
    }
    at.offset = response.headers.get('electric-offset') ?? ''
    at.handle = response.headers.get('electric-handle') ?? ''
    if (response.headers.has('electric-up-to-date')) return true
  }
  return false
}

it('lets a client that joins after 10,000 updates of one row read about the rows, and clients part way go on', async () => {
  const live = follow()
  await live.shape.rows
  await update(1, 3_000)
  // The engine has the updates: a client paging now reads past the snapshot into them (before,
  // its last snapshot chunk was the tip, and the page said up to date there).
  await vi.waitFor(
    () => expect(live.shape.currentRows.find((r) => r.id === 1)?.n).toBe(3_000),
    { timeout: 30_000, interval: 50 },
  )
  // A client part way through the log before it is compacted: the snapshot and a little more.
  const paging = new Map() as Rows
  const at = { offset: '-1', handle: '' }
  await page(paging, at, ROWS / 30 + 20)
  expect(at.offset).not.toMatch(/^0_/)
  await update(3_001, 7_000)
  const expected = await postgresRows()
  await vi.waitFor(
    () => expect(sorted(live.shape.currentRows)).toEqual(expected),
    { timeout: 30_000, interval: 100 },
  )
  // A new client: once the engine compacted, it reads at most two messages per row.
  await vi.waitFor(
    async () => {
      const late = follow()
      await late.shape.rows
      expect(late.read.data).toBeLessThanOrEqual(2 * ROWS)
      expect(sorted(late.shape.currentRows)).toEqual(expected)
    },
    { timeout: 30_000, interval: 200 },
  )
  // The paging client goes on from the offset it held, to the same rows.
  let done = false
  for (let i = 0; i < 100 && !done; i++) done = await page(paging, at, 50)
  expect(done).toBe(true)
  // It reads the values as sent, as text.
  const parsed = [...paging.values()].map((r) => ({
    id: Number(r.id),
    title: r.title,
    n: Number(r.n),
    m: Number(r.m),
  }))
  expect(parsed.sort((a, b) => a.id - b.id)).toEqual(expected)
}, 120_000)
