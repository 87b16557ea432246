// The cap on shapes (maxShapes, shapes/expiry.ts): a load creating more shapes than the cap is
// answered in full, and the passes then remove the least recently read down to the cap. The
// official client of a removed shape gets a 409 and carries on, on a new shape.
import { Shape, ShapeStream } from '@electric-sql/client'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'
import { rawGet, rawLoad } from '../support/raw-load.ts'
import { waitUntil } from '../support/wait.ts'

const MAX_SHAPES = 5

let source: TestDatabase
let engine: TestEngine
const aborter = new AbortController()

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(`create table notes (id int primary key, body text)`)
  await source.db.query(`insert into notes values (1, 'a'), (2, 'b')`)
  engine = await startTestEngine(source.url, {
    maxShapes: MAX_SHAPES,
    expiryPeriodMs: 100,
  })
}, 60_000)

afterAll(async () => {
  aborter.abort()
  await engine?.destroy()
  await source?.drop()
})

const shapeCount = () => engine.database.shapeFacts().length

it('removes the least recently read shapes past the cap; their client refetches and goes on', async () => {
  const statuses: number[] = []
  const stream = new ShapeStream({
    url: engine.shapeUrl,
    params: { table: 'notes', where: 'id < 100' },
    signal: aborter.signal,
    fetchClient: async (input, init) => {
      const response = await fetch(input, init)
      statuses.push(response.status)
      return response
    },
  })
  const shape = new Shape(stream)
  expect((await shape.rows).map((r) => r.body).sort()).toEqual(['a', 'b'])
  const first = stream.shapeHandle
  // Parked on its long-poll: read before any of the load's shapes, so it is the first to go.
  await waitUntil(
    'the client parked',
    () => engine.database.waitingRequests() === 1,
  )

  const urls = Array.from(
    { length: 4 * MAX_SHAPES },
    (_, i) =>
      `${engine.shapeUrl}?table=notes&where=${encodeURIComponent(`id >= ${1000 + i}`)}&offset=-1`,
  )
  const load = rawLoad(urls)
  const answers = await load.done
  // A new shape is never refused for the cap.
  expect(answers.map((a) => a.status)).toEqual(urls.map(() => 200))

  await waitUntil(
    'the client sent to a new shape',
    () => statuses.includes(409),
    10_000,
  )
  await waitUntil('the client back on a new shape', () => stream.isUpToDate)
  expect(stream.shapeHandle).not.toBe(first)
  await source.db.query(`insert into notes values (50, 'after')`)
  await waitUntil('the change reached the client', () =>
    shape.currentRows.some((r) => r.body === 'after'),
  )
  expect(shape.currentRows.map((r) => r.body).sort()).toEqual([
    'a',
    'after',
    'b',
  ])

  await waitUntil('the cap applied', () => shapeCount() <= MAX_SHAPES)
  // A removed shape of the load answers its handle with a 409 naming a new one.
  const index = answers.findIndex(
    (a) => !engine.database.byHandle(String(a.headers['electric-handle'])),
  )
  expect(index).toBeGreaterThanOrEqual(0)
  const removed = answers[index]
  const handle = String(removed?.headers['electric-handle'])
  const offset = String(removed?.headers['electric-offset'])
  const again = await rawGet(
    `${urls[index]?.replace('offset=-1', `offset=${offset}`)}&handle=${handle}`,
  ).answer
  expect(again.status).toBe(409)
  expect(JSON.parse(again.body)).toEqual([
    { headers: { control: 'must-refetch' } },
  ])
  expect(again.headers['electric-handle']).not.toBe(handle)
}, 30_000)
