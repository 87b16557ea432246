// Fan-out through an ordinary HTTP cache: 1,000 official clients of one shape behind nginx with
// the repo's shape-cache config (deploy/nginx/shape-cache.conf) cost the engine a handful of
// requests per change, not 1,000, and every client ends with the source's rows.
import { ShapeStream, type Row } from '@electric-sql/client'
import { createHash } from 'node:crypto'
import type pg from 'pg'
import { afterAll, beforeAll, expect, it, onTestFinished, vi } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'
import { startCachingProxy, type CachingProxy } from '../../scripts/nginx.ts'

const CLIENTS = 1_000
const CHANGES = 5

let source: TestDatabase
let engine: TestEngine
let proxy: CachingProxy
const origin = { all: 0, initial: 0 }
const aborter = new AbortController()

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(`create table items (id int primary key, body text)`)
  await source.db.query(
    `insert into items select i, 'row ' || i from generate_series(1, 100) i`,
  )
  engine = await startTestEngine(source.url, {
    onRequest(request) {
      const url = new URL(request.url ?? '', 'http://engine')
      if (url.pathname !== '/v1/shape') return
      origin.all++
      if (url.searchParams.get('offset') === '-1') origin.initial++
    },
  })
  proxy = await startCachingProxy(new URL(engine.shapeUrl).origin, {
    connections: CLIENTS,
  })
}, 60_000)

afterAll(async () => {
  aborter.abort()
  await proxy?.stop()
  await engine?.destroy()
  await source?.drop()
})

/** Count and checksum of a set of rows, keyed by id, independent of order. */
function digest(rows: Iterable<Row>): string {
  const lines = [...rows].map((r) => `${String(r.id)}:${String(r.body)}`)
  lines.sort()
  const sum = createHash('sha256').update(lines.join('\n')).digest('hex')
  return `${lines.length}/${sum}`
}

async function sourceDigest(db: pg.ClientBase): Promise<string> {
  const { rows } = await db.query<Row>('select id, body from items')
  return digest(rows)
}

/** One official client that keeps its rows as the messages say. */
function follow(url: string) {
  const rows = new Map<string, Row>()
  const client = { rows, upToDate: false }
  const stream = new ShapeStream<Row>({
    url,
    params: { table: 'items' },
    signal: aborter.signal,
  })
  stream.subscribe((messages) => {
    for (const m of messages) {
      if ('key' in m) {
        if (m.headers.operation === 'delete') rows.delete(m.key)
        else rows.set(m.key, { ...rows.get(m.key), ...m.value })
      } else if (m.headers.control === 'up-to-date') client.upToDate = true
      else if (m.headers.control === 'must-refetch') rows.clear()
    }
  })
  return client
}

async function allConverge(
  clients: ReturnType<typeof follow>[],
  db: pg.ClientBase,
) {
  const expected = await sourceDigest(db)
  await vi.waitFor(
    () => {
      const behind = clients.filter(
        (c) => !c.upToDate || digest(c.rows.values()) !== expected,
      ).length
      if (behind > 0) throw new Error(`${behind} clients behind`)
    },
    { timeout: 60_000, interval: 100 },
  )
}

it(`costs the engine a handful of requests per change for ${CLIENTS} live clients of one shape, and every client converges`, async () => {
  // Its connection taken first: with a thousand clients to serve, the test's event loop can
  // be too busy for a new connection's handshake within the pool's timeout (a fresh-clone run
  // failed so), and a transaction needs one connection anyway, not the pool's next.
  const writer = await source.db.connect()
  onTestFinished(() => writer.release())
  const url = `${proxy.origin}/v1/shape`
  const clients = Array.from({ length: CLIENTS }, () => follow(url))
  await allConverge(clients, writer)
  // The snapshot once, its tip and the first live request about once each.
  expect(origin.initial).toBe(1)
  expect(origin.all).toBeLessThanOrEqual(10)

  const before = origin.all
  for (let i = 1; i <= CHANGES; i++) {
    await writer.query('begin')
    await writer.query(`update items set body = $1 where id = $2`, [
      `change ${i}`,
      i,
    ])
    await writer.query(`delete from items where id = $1`, [100 - i])
    await writer.query(`insert into items values ($1, $2)`, [
      1_000 + i,
      `new ${i}`,
    ])
    await writer.query('commit')
    await allConverge(clients, writer)
  }
  const perChange = (origin.all - before) / CHANGES
  // Without the cache this is 1,000: each client's next live request reaches the engine.
  expect(perChange).toBeLessThanOrEqual(5)
}, 180_000)
