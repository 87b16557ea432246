// Large shapes are served in log chunks (docs/protocol.md): every answer ends at a chunk end
// fixed by the log, whatever offset the request resumes from, so caches share the answers.
import { createHash } from 'node:crypto'
import { Shape, ShapeStream, type Row } from '@electric-sql/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'

// About 5,000 rows of ~250 bytes in the log: a dozen chunks of 100 kB.
const ROWS = 5000
const CHUNK_BYTES = 100_000

let source: TestDatabase
let engine: TestEngine
const aborters: AbortController[] = []

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(`create table big (id int primary key, body text)`)
  await source.db.query(
    `insert into big select i, repeat(md5(i::text), 4) from generate_series(1, ${ROWS}) i`,
  )
  engine = await startTestEngine(source.url, { chunkBytes: CHUNK_BYTES })
}, 60_000)

afterAll(async () => {
  for (const a of aborters) a.abort()
  await engine?.destroy()
  await source?.drop()
})

const checksum = (rows: Array<{ id: unknown; body: unknown }>) =>
  createHash('sha256')
    .update(
      JSON.stringify(
        rows
          .map((r) => [Number(r.id), String(r.body)] as const)
          .sort((a, b) => a[0] - b[0]),
      ),
    )
    .digest('hex')

const get = (query: string) => fetch(`${engine.shapeUrl}?table=big&${query}`)

describe('chunked large shapes', () => {
  it('the official client gets every row across the chunks', async () => {
    const aborter = new AbortController()
    aborters.push(aborter)
    const shape = new Shape<Row>(
      new ShapeStream({
        url: engine.shapeUrl,
        params: { table: 'big' },
        signal: aborter.signal,
      }),
    )
    const rows = await shape.rows
    const { rows: expected } = await source.db.query<{
      id: number
      body: string
    }>('select id, body from big')
    expect(rows).toHaveLength(ROWS)
    expect(checksum(rows as Array<{ id: unknown; body: unknown }>)).toBe(
      checksum(expected),
    )
  })

  it('ends each answer at a chunk end fixed by the log', async () => {
    let response = await get('offset=-1')
    const handle = response.headers.get('electric-handle') ?? ''
    const ends: string[] = []
    // Bounded: a dozen chunks, well under 100.
    for (let i = 0; i < 100; i++) {
      const offset = response.headers.get('electric-offset') ?? ''
      const bytes = (await response.text()).length
      if (response.headers.has('electric-up-to-date')) break
      // Within a record or two of the threshold (storage/chunks.ts).
      expect(bytes).toBeGreaterThan(CHUNK_BYTES * 0.8)
      expect(bytes).toBeLessThan(CHUNK_BYTES * 1.2)
      // A chunk past the first never changes: caches keep it a minute, then revalidate.
      if (i > 0)
        expect(response.headers.get('cache-control')).toBe(
          'public, max-age=60, stale-while-revalidate=300',
        )
      ends.push(offset)
      response = await get(`offset=${offset}&handle=${handle}`)
    }
    expect(ends.length).toBeGreaterThan(5)
    // Snapshot chunks are numbered as Electric numbers them; 0_k goes on after chunk k, the
    // same answer every time.
    expect(ends).toEqual(ends.map((_, i) => `0_${i}`))
    const again = await get(`offset=0_0&handle=${handle}`)
    expect(again.headers.get('electric-offset')).toBe('0_1')
  })
})
