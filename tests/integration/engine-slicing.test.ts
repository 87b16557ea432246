// A transaction whose rows are costly for some shape's where clause is applied in time slices:
// the event loop keeps turning (timers, other requests), shapes deleted or created meanwhile
// are handled, and every other shape still gets every row, in order, exactly once.
import {
  ShapeStream,
  isChangeMessage,
  type Message,
  type Row,
} from '@electric-sql/client'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'

let source: TestDatabase
let engine: TestEngine
const aborters: AbortController[] = []

// `%aaa…b` backtracks O(text × pattern): each row below costs one whole evaluation budget
// (about 10 ms here) and then does not match.
const costlyWhere = (n = 2000) => `body LIKE '%${'a'.repeat(n)}b'`
const ROWS = 400
const costlyInsert = (table: string, from: number) =>
  source.db.query(
    `insert into ${table} select i, repeat('a', 20000) || 'b'
     from generate_series($1::int, $2::int) as i`,
    [from, from + ROWS - 1],
  )

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(
    `create table items (id int primary key, body text);
     create table moves (id int primary key, body text)`,
  )
  engine = await startTestEngine(source.url)
}, 60_000)

afterAll(async () => {
  for (const a of aborters) a.abort()
  await engine?.destroy()
  await source?.drop()
})

/** Creates the shape (its snapshot read) and answers its handle. */
async function createShape(table: string, where?: string): Promise<string> {
  const query = new URLSearchParams({ table, columns: 'id', offset: '-1' })
  if (where) query.set('where', where)
  const response = await fetch(`${engine.shapeUrl}?${query}`)
  expect(response.status).toBe(200)
  await response.arrayBuffer()
  return response.headers.get('electric-handle') ?? ''
}

/** Follows a shape with the official client; answers the ids of its inserts, in order. */
function follow(table: string, where?: string): number[] {
  const ids: number[] = []
  const aborter = new AbortController()
  aborters.push(aborter)
  const stream = new ShapeStream({
    url: engine.shapeUrl,
    params: where
      ? { table, columns: ['id'], where }
      : { table, columns: ['id'] },
    signal: aborter.signal,
  })
  stream.subscribe((batch: Message<Row>[]) => {
    for (const m of batch)
      if (isChangeMessage(m) && m.headers.operation === 'insert')
        ids.push(Number(m.value.id))
  })
  return ids
}

const range = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => from + i)

// Whether the engine is inside onTransaction: lets the test act while the work yields.
const applying = () =>
  (engine.database as unknown as { applying: boolean }).applying

it('keeps the event loop turning while a costly shape evaluates a large transaction', async () => {
  await createShape('items', costlyWhere())
  const ids = follow('items')

  let last = performance.now()
  let maxGap = 0
  const ticker = setInterval(() => {
    const now = performance.now()
    maxGap = Math.max(maxGap, now - last)
    last = now
  }, 5)
  try {
    await costlyInsert('items', 1)
    await expect.poll(() => ids.length, { timeout: 60_000 }).toBe(ROWS)
  } finally {
    clearInterval(ticker)
  }
  expect(ids).toEqual(range(1, ROWS))
  // Unsliced, the loop is held for the whole transaction: ROWS × ~10 ms, several seconds.
  expect(maxGap).toBeLessThan(1_000)
}, 90_000)

it('handles shapes deleted and created while the transaction yields', async () => {
  const kept = follow('moves')
  const deleted = await createShape('moves', 'id > 0')
  const costly = await createShape('moves', costlyWhere())
  await createShape('moves', costlyWhere(1999))

  await costlyInsert('moves', 1)
  await expect.poll(applying, { timeout: 30_000, interval: 5 }).toBe(true)
  const remove = (handle: string) =>
    fetch(`${engine.shapeUrl}?handle=${handle}`, { method: 'DELETE' })
  // The costly shape being evaluated, and a shape that may have appended already or still
  // waits its turn. `later` keeps the transaction going for seconds more.
  expect((await remove(costly)).status).toBe(202)
  expect((await remove(deleted)).status).toBe(202)
  // A new shape, the deleted one's definition: its snapshot holds the committed transaction.
  await createShape('moves', 'id > 0')
  expect(applying()).toBe(true)
  const created = follow('moves', 'id > 0')
  await expect.poll(() => created.length, { timeout: 30_000 }).toBe(ROWS)

  await expect.poll(() => kept.length, { timeout: 60_000 }).toBe(ROWS)
  expect(kept).toEqual(range(1, ROWS))
  // Later transactions reach both, once each: nothing was lost or doubled.
  await source.db.query(`insert into moves values (${ROWS + 1}, 'x')`)
  await expect.poll(() => kept.length).toBe(ROWS + 1)
  await expect.poll(() => created.length).toBe(ROWS + 1)
  expect(kept).toEqual(range(1, ROWS + 1))
  expect([...created].sort((a, b) => a - b)).toEqual(range(1, ROWS + 1))
  expect(engine.database.status).toBe('active')
}, 120_000)
