// Chunk thresholds down to Electric's test setup's 10,000 bytes (docs/protocol.md "Chunks"):
// every answer but a part's last ends within a fifth of the threshold, in the snapshot (after
// its ramp of smaller first answers, at 10 MiB) and in the log after it, and the official
// client reads every row as Postgres has it.
import { Shape, ShapeStream, type Row } from '@electric-sql/client'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'

let source: TestDatabase
const engines: TestEngine[] = []
const aborters: AbortController[] = []

beforeAll(async () => {
  source = await createTestDatabase()
}, 60_000)

afterAll(async () => {
  for (const a of aborters) a.abort()
  for (const engine of engines) await engine.destroy()
  await source?.drop()
})

type Answer = { bytes: number; offset: string; upToDate: boolean }

/** Every answer from offset -1 to the tip, as a client that is not live pages through them. */
async function answers(shapeUrl: string, table: string): Promise<Answer[]> {
  const out: Answer[] = []
  let query = 'offset=-1'
  // Bounded: a few hundred answers at the smallest threshold.
  for (let i = 0; i < 2_000; i++) {
    const response = await fetch(`${shapeUrl}?table=${table}&${query}`)
    expect(response.status).toBe(200)
    const offset = response.headers.get('electric-offset') ?? ''
    const upToDate = response.headers.has('electric-up-to-date')
    out.push({
      bytes: Buffer.byteLength(await response.text()),
      offset,
      upToDate,
    })
    if (upToDate) return out
    query = `offset=${offset}&handle=${response.headers.get('electric-handle')}`
  }
  throw new Error('never up to date')
}

/** The rows as Postgres has them, in the client's shape. */
async function postgresRows(table: string) {
  const { rows } = await source.db.query<{ id: number; body: string }>(
    `select id, body from ${table} order by id`,
  )
  return rows.map((r) => ({ id: r.id, body: r.body }))
}

async function clientRows(shapeUrl: string, table: string) {
  const aborter = new AbortController()
  aborters.push(aborter)
  const shape = new Shape<Row>(
    new ShapeStream({
      url: shapeUrl,
      params: { table },
      signal: aborter.signal,
    }),
  )
  await shape.rows
  return shape
}

const sorted = (rows: Row[]) =>
  rows
    .map((r) => ({ id: Number(r.id), body: String(r.body) }))
    .sort((a, b) => a.id - b.id)

/** Answers past the first part's: the snapshot ends with its own, the log with up-to-date. */
function full(all: Answer[]): Answer[] {
  const lastSnapshot = all.findLastIndex((a) => a.offset.startsWith('0_'))
  return all.filter((a, i) => i !== lastSnapshot && !a.upToDate)
}

/**
 * What answer `i` holds: the threshold, but for the snapshot's first answers, which ramp up to
 * it from at least 64 KiB (the threshold over 2^steps, then 2^steps, ..., 2).
 */
function expectedSize(threshold: number, i: number, answer: Answer): number {
  let steps = 0
  while (Math.floor(threshold / 2 ** (steps + 1)) >= 64 * 1024) steps++
  if (!answer.offset.startsWith('0_') || i > steps) return threshold
  return threshold / 2 ** (i === 0 ? steps : steps - i + 1)
}

// The log's changes stay under a quarter of the snapshot, so it is not compacted meanwhile
// (a compacted segment's end ends a chunk too, as the snapshot's does).
describe.each([
  { threshold: 10_000, rows: 4_000, txs: 160 },
  { threshold: 64 * 1024, rows: 4_000, txs: 160 },
  { threshold: 10 * 1024 * 1024, rows: 100_000, txs: 0 },
])('at $threshold bytes', ({ threshold, rows, txs }) => {
  const table = `chunks_${threshold}`
  let engine: TestEngine

  beforeAll(async () => {
    // Rows of about 250 bytes as messages.
    await source.db.query(
      `create table ${table} (id int primary key, body text)`,
    )
    await source.db.query(
      `insert into ${table} select i, repeat(md5(i::text), 4) from generate_series(1, ${rows}) i`,
    )
    engine = await startTestEngine(source.url, { chunkBytes: threshold })
    engines.push(engine)
  }, 60_000)

  it('ends every answer within a fifth of it, and the client reads every row', async () => {
    const shape = await clientRows(engine.shapeUrl, table)
    // Transactions of five rows each, after the snapshot: the log's own chunks.
    for (let t = 0; t < txs; t++)
      await source.db.query(
        `update ${table} set body = repeat(md5(random()::text), 4) where id between $1 and $1 + 4`,
        [1 + t * 5],
      )
    const expected = await postgresRows(table)
    await vi.waitFor(
      () => expect(sorted(shape.currentRows)).toEqual(expected),
      {
        timeout: 30_000,
        interval: 100,
      },
    )
    const all = await answers(engine.shapeUrl, table)
    const kept = full(all)
    expect(kept.length).toBeGreaterThan(1)
    for (const answer of kept) {
      const size = expectedSize(threshold, all.indexOf(answer), answer)
      expect(answer.bytes).toBeGreaterThan(size * 0.8)
      expect(answer.bytes).toBeLessThan(size * 1.2)
    }
    if (txs > 0)
      expect(
        all.filter((a) => !a.offset.startsWith('0_')).length,
      ).toBeGreaterThan(2)
  }, 120_000)
})
