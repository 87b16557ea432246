// F4 of the fault matrix (issue 19): the network between engine and source stops forwarding
// without closing anything. The engine must notice within its silence timeout, reconnect once
// the link is back, and its clients must end with every committed row exactly once.
import { ShapeStream, type Row } from '@electric-sql/client'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts'

const SILENCE_MS = 2_000
const PARTITION_MS = 6_000

let source: TestDatabase
let proxy: TcpProxy
let engine: TestEngine
const aborter = new AbortController()

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query('create table events (id int primary key, body text)')
  const direct = new URL(source.url)
  proxy = await startTcpProxy({
    host: direct.hostname,
    port: Number(direct.port),
  })
  const through = new URL(source.url)
  through.port = String(proxy.port)
  engine = await startTestEngine(through.toString(), { silenceMs: SILENCE_MS })
}, 60_000)

afterAll(async () => {
  aborter.abort()
  await engine?.destroy()
  await proxy?.close()
  await source?.drop()
})

it('notices a silent partition, reconnects when it heals, and loses and repeats nothing', async () => {
  const inserts = new Map<string, number>()
  const rows = new Map<string, Row>()
  const stream = new ShapeStream<Row>({
    url: engine.shapeUrl,
    params: { table: 'events' },
    signal: aborter.signal,
  })
  stream.subscribe((messages) => {
    for (const m of messages) {
      if (!('key' in m)) continue
      if (m.headers.operation === 'insert')
        inserts.set(m.key, (inserts.get(m.key) ?? 0) + 1)
      if (m.headers.operation === 'delete') rows.delete(m.key)
      else rows.set(m.key, { ...rows.get(m.key), ...m.value })
    }
  })
  const write = (from: number, to: number) =>
    source.db.query(
      `insert into events select i, 'e' || i from generate_series($1::int, $2::int) i`,
      [from, to],
    )
  await write(1, 50)
  await expect.poll(() => rows.size, { timeout: 15_000 }).toBe(50)

  proxy.partition()
  const cut = performance.now()
  // Committed while the engine cannot hear: they must arrive after the heal, once.
  await write(51, 100)
  await expect
    .poll(() => engine.database.status, { timeout: SILENCE_MS * 5 })
    .not.toBe('active')
  const noticedMs = performance.now() - cut
  expect(noticedMs).toBeLessThan(SILENCE_MS * 3)

  await expect
    .poll(() => performance.now() - cut >= PARTITION_MS, {
      timeout: PARTITION_MS * 2,
    })
    .toBe(true)
  proxy.heal()
  await write(101, 150)
  await expect
    .poll(() => engine.database.status, { timeout: 30_000 })
    .toBe('active')
  await expect.poll(() => rows.size, { timeout: 30_000 }).toBe(150)
  const { rows: truth } = await source.db.query<{ id: number; body: string }>(
    'select id, body from events order by id',
  )
  expect(
    [...rows.values()].map((r) => Number(r.id)).sort((a, b) => a - b),
  ).toEqual(truth.map((r) => r.id))
  expect([...inserts.values()].filter((n) => n > 1)).toEqual([])
}, 90_000)
