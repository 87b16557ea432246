// Snapshot and stream meet with no gap and no double: writers keep changing the table while
// clients take their snapshots; every client ends equal to the source, row for row.
import {
  Shape,
  ShapeStream,
  type ShapeStreamOptions,
} from '@electric-sql/client'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'

let source: TestDatabase
let engine: TestEngine
const aborters: AbortController[] = []

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(
    `create table counters (id int primary key, v int not null, grp int not null)`,
  )
  await source.db.query(
    `insert into counters select i, 0, i % 4 from generate_series(1, 2000) as i`,
  )
  engine = await startTestEngine(source.url)
}, 60_000)

afterAll(async () => {
  for (const a of aborters) a.abort()
  await engine?.destroy()
  await source?.drop()
})

const checksum = (rows: Array<{ id: unknown; v: unknown }>) =>
  rows.reduce((sum, r) => sum + Number(r.id) * 7919 + Number(r.v), 0)

it('keeps every client equal to the source under concurrent writes', async () => {
  let writing = true
  let writes = 0
  const writer = async () => {
    while (writing) {
      const id = 1 + Math.floor(Math.random() * 2200)
      await source.db.query(
        `insert into counters values ($1, 1, $1 % 4)
         on conflict (id) do update set v = counters.v + 1`,
        [id],
      )
      if (id % 11 === 0)
        await source.db.query('delete from counters where id = $1', [id + 1])
      writes++
    }
  }
  const writers = [writer(), writer(), writer()]
  const shapes: Shape[] = []
  for (const where of [undefined, 'grp = 1', 'v > 0']) {
    // Start shapes while writes are in flight, so snapshots race the stream.
    // Waits on writes, not on time: under a busy machine they come slower than a second's worth.
    await expect
      .poll(() => writes, { timeout: 30_000 })
      .toBeGreaterThan(shapes.length * 50 + 20)
    const aborter = new AbortController()
    aborters.push(aborter)
    const params: ShapeStreamOptions['params'] = where
      ? { table: 'counters', where }
      : { table: 'counters' }
    shapes.push(
      new Shape(
        new ShapeStream({
          url: engine.shapeUrl,
          params,
          signal: aborter.signal,
        }),
      ),
    )
  }
  await expect.poll(() => writes, { timeout: 30_000 }).toBeGreaterThan(400)
  writing = false
  await Promise.all(writers)

  const expected = async (where: string) => {
    const { rows } = await source.db.query<{ id: number; v: number }>(
      `select id, v from counters where ${where}`,
    )
    return { count: rows.length, checksum: checksum(rows) }
  }
  const wheres = ['true', 'grp = 1', 'v > 0']
  for (const [i, shape] of shapes.entries()) {
    const want = await expected(wheres[i] ?? 'true')
    await expect
      .poll(
        () => ({
          count: shape.currentRows.length,
          checksum: checksum(shape.currentRows as never),
        }),
        {
          timeout: 20_000,
        },
      )
      .toEqual(want)
  }
}, 90_000)
