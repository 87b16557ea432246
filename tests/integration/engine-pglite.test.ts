// pglite-sync (PGlite in Node) following two shapes of the engine: a transaction spanning
// both tables lands in one local transaction, a reload resumes without a new snapshot, and a
// rotated shape (409, must-refetch) is fetched again over the rows the tables already hold.
import { PGlite } from '@electric-sql/pglite'
import { electricSync } from '@electric-sql/pglite-sync'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'

let source: TestDatabase
let engine: TestEngine
let localDir: string

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(`
    create table orders (id int primary key, total int not null);
    create table lines (id int primary key, order_id int not null, sku text)`)
  engine = await startTestEngine(source.url)
  localDir = await mkdtemp(join(tmpdir(), 'sluice-pglite-'))
}, 60_000)

afterAll(async () => {
  await engine?.destroy()
  await source?.drop()
  await rm(localDir, { recursive: true, force: true })
})

async function openLocal(requests: string[]) {
  const pg = await PGlite.create({
    dataDir: localDir,
    extensions: { electric: electricSync() },
  })
  await pg.exec(`
    create table if not exists orders (id int primary key, total int not null);
    create table if not exists lines (id int primary key, order_id int not null, sku text)`)
  const fetchClient: typeof fetch = (input, init) => {
    requests.push(String(input))
    return fetch(input, init)
  }
  const sync = await pg.electric.syncShapesToTables({
    key: 'orders-and-lines',
    shapes: {
      orders: {
        shape: {
          url: engine.shapeUrl,
          params: { table: 'orders' },
          fetchClient,
        },
        table: 'orders',
        primaryKey: ['id'],
      },
      lines: {
        shape: {
          url: engine.shapeUrl,
          params: { table: 'lines' },
          fetchClient,
        },
        table: 'lines',
        primaryKey: ['id'],
      },
    },
  })
  return { pg, sync }
}

const counts = async (pg: PGlite) => {
  const { rows } = await pg.query<{ orders: number; lines: number }>(
    `select (select count(*)::int from orders) as orders, (select count(*)::int from lines) as lines`,
  )
  return rows[0] ?? { orders: 0, lines: 0 }
}

it('applies a transaction over two tables at once, and resumes after a reload', async () => {
  await source.db.query(
    `insert into orders values (1, 10); insert into lines values (1, 1, 'a')`,
  )
  const firstRequests: string[] = []
  const first = await openLocal(firstRequests)
  await expect
    .poll(() => counts(first.pg), { timeout: 15_000 })
    .toEqual({ orders: 1, lines: 1 })

  // Each transaction adds one order and one line: the local copy must never show one alone.
  const torn: Array<{ orders: number; lines: number }> = []
  for (let i = 2; i <= 21; i++) {
    const client = await source.db.connect()
    try {
      await client.query('begin')
      await client.query('insert into orders values ($1, $2)', [i, i * 10])
      await client.query('insert into lines values ($1, $1, $2)', [
        i,
        `sku-${i}`,
      ])
      await client.query('commit')
    } finally {
      client.release()
    }
    const seen = await counts(first.pg)
    if (seen.orders !== seen.lines) torn.push(seen)
  }
  await expect
    .poll(
      async () => {
        const seen = await counts(first.pg)
        if (seen.orders !== seen.lines) torn.push(seen)
        return seen
      },
      { timeout: 15_000 },
    )
    .toEqual({ orders: 21, lines: 21 })
  expect(torn).toEqual([])
  expect(firstRequests.some((url) => url.includes('offset=-1'))).toBe(true)

  first.sync.unsubscribe()
  await first.pg.close()

  await source.db.query(
    `insert into orders values (22, 220); insert into lines values (22, 22, 'z')`,
  )
  const secondRequests: string[] = []
  const second = await openLocal(secondRequests)
  await expect
    .poll(() => counts(second.pg), { timeout: 15_000 })
    .toEqual({ orders: 22, lines: 22 })
  expect(secondRequests.length).toBeGreaterThan(0)
  expect(secondRequests.filter((url) => url.includes('offset=-1'))).toEqual([])
  second.sync.unsubscribe()
  await second.pg.close()
}, 60_000)

it('refetches over the rows it already holds when a shape is rotated (must-refetch)', async () => {
  const requests: string[] = []
  const local = await openLocal(requests)
  const expected = await source.db.query<{ orders: number; lines: number }>(
    `select (select count(*)::int from orders) as orders, (select count(*)::int from lines) as lines`,
  )
  await expect
    .poll(() => counts(local.pg), { timeout: 15_000 })
    .toEqual(expected.rows[0])
  const handle = local.sync.streams.orders?.shapeHandle
  expect(handle).toBeTruthy()

  // The refetch brings every row again: only a client that empties its table first takes
  // them; one that inserts over what it holds stops at the primary key.
  const rotated = await fetch(`${engine.shapeUrl}?handle=${handle}`, {
    method: 'DELETE',
  })
  expect(rotated.status).toBe(202)
  await source.db.query(
    `insert into orders values (100, 1000); insert into lines values (100, 100, 'after')`,
  )
  await expect
    .poll(() => counts(local.pg), { timeout: 15_000 })
    .toEqual({
      orders: (expected.rows[0]?.orders ?? 0) + 1,
      lines: (expected.rows[0]?.lines ?? 0) + 1,
    })
  const { rows } = await local.pg.query<{ id: number; total: number }>(
    'select id, total from orders order by id',
  )
  const truth = await source.db.query<{ id: number; total: number }>(
    'select id, total from orders order by id',
  )
  expect(rows).toEqual(truth.rows)
  // The refetch started from the beginning, under a new handle.
  const refetch = requests.filter(
    (url) => url.includes('offset=-1') && url.includes('table=orders'),
  )
  expect(refetch.length).toBeGreaterThan(0)
  expect(local.sync.streams.orders?.shapeHandle).not.toBe(handle)
  local.sync.unsubscribe()
  await local.pg.close()
}, 60_000)
