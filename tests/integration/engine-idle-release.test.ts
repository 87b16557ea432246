// Released while idle (replication/idle.ts): with nothing asking, the engine's connections leave
// the database (so it may scale to zero) while its slot keeps every change; the next request
// resumes streaming and a client gets what was committed meanwhile, in order.
import {
  Shape,
  ShapeStream,
  isChangeMessage,
  type Message,
  type Offset,
  type Row,
} from '@electric-sql/client'
import pg from 'pg'
import {
  afterAll,
  afterEach,
  beforeAll,
  describe,
  expect,
  inject,
  it,
} from 'vitest'
import { replicationNames } from '../../src/engine/replication/names.ts'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'
import { waitUntil } from '../support/wait.ts'

const IDLE_MS = 1_000
// The test's own sessions on the source, told apart from the engine's by this name.
const WRITER = 'idle-release-test'

let source: TestDatabase
let engine: TestEngine
let writer: pg.Client
let observer: pg.Client
// Each test's clients, aborted at its end: a live one would keep the engine from idling.
let aborters: AbortController[] = []

beforeAll(async () => {
  source = await createTestDatabase()
  writer = new pg.Client({
    connectionString: source.url,
    application_name: WRITER,
  })
  await writer.connect()
  await writer.query(`create table items (id int primary key, label text)`)
  await writer.query(`insert into items values (1, 'a'), (2, 'b'), (3, 'c')`)
  observer = new pg.Client({
    connectionString: inject('pgAdminUrl'),
    application_name: WRITER,
  })
  await observer.connect()
  engine = await startTestEngine(source.url, {
    replicationIdleTimeoutMs: IDLE_MS,
  })
}, 60_000)

afterEach(() => {
  for (const a of aborters) a.abort()
  aborters = []
})

afterAll(async () => {
  await engine?.destroy()
  await writer?.end()
  await observer?.end()
  await source?.drop()
})

/** The engine's sessions on the source database: its replication stream and its pool's. */
async function engineSessions(): Promise<number> {
  const { rows } = await observer.query<{ n: number }>(
    `select count(*)::int as n from pg_stat_activity
      where datname = $1 and application_name <> $2`,
    [source.name, WRITER],
  )
  return rows[0]?.n ?? -1
}

async function slot(): Promise<{ exists: boolean; active: boolean }> {
  const { rows } = await observer.query<{ active: boolean }>(
    `select active from pg_replication_slots where slot_name = $1`,
    [replicationNames(engine.database.config.id).slot],
  )
  return { exists: rows.length === 1, active: rows[0]?.active === true }
}

// Under the pool's own idle timeout (10 s): its connections must close on release, not later.
async function released(): Promise<void> {
  await waitUntil(
    'the engine to release its connections',
    async () =>
      engine.database.status === 'idle' && (await engineSessions()) === 0,
    8_000,
  )
}

type Item = { id: number; label: string }

async function tableRows(): Promise<Item[]> {
  const { rows } = await writer.query<Item>(
    `select id, label from items order by id`,
  )
  return rows
}

const sorted = (rows: Iterable<Row>): Item[] =>
  [...rows]
    .map((row) => ({ id: Number(row.id), label: String(row.label) }))
    .sort((a, b) => a.id - b.id)

function stream(options: {
  offset?: Offset
  handle?: string
  subscribe?: boolean
}): ShapeStream<Row> {
  const aborter = new AbortController()
  aborters.push(aborter)
  return new ShapeStream<Row>({
    url: engine.shapeUrl,
    params: { table: 'items' },
    signal: aborter.signal,
    ...options,
  })
}

/** Reads a shape to up-to-date without staying live: the rows, and where a client would go on. */
async function readOnce(): Promise<{
  rows: Map<string, Row>
  offset: Offset
  handle: string
}> {
  const rows = new Map<string, Row>()
  const once = stream({ subscribe: false })
  await new Promise<void>((resolve, reject) => {
    once.subscribe((messages) => {
      applyAll(rows, messages)
      if (messages.some((m) => m.headers.control === 'up-to-date')) resolve()
    }, reject)
  })
  return { rows, offset: once.lastOffset, handle: once.shapeHandle ?? '' }
}

function applyAll(rows: Map<string, Row>, messages: Message<Row>[]): void {
  for (const message of messages) {
    if (!isChangeMessage(message)) continue
    if (message.headers.operation === 'delete') rows.delete(message.key)
    else rows.set(message.key, { ...rows.get(message.key), ...message.value })
  }
}

describe('replication released while idle', () => {
  it('closes the engine’s sessions once nothing asks, keeping the slot; health says active', async () => {
    await readOnce()
    await released()
    expect(await slot()).toEqual({ exists: true, active: false })
    const health = await fetch(new URL('/v1/health', engine.shapeUrl))
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ status: 'active' })
  }, 30_000)

  it('delivers what was committed while released, in order, to a client resuming at its offset', async () => {
    const before = await readOnce()
    await released()
    // Each step depends on the one before: any other order ends elsewhere.
    await writer.query(`insert into items values (10, 'new')`)
    await writer.query(`update items set label = 'new-2' where id = 10`)
    await writer.query(`delete from items where id = 2`)
    await writer.query(`insert into items values (2, 'again')`)
    await writer.query(
      `update items set label = label || '!' where id in (1, 2)`,
    )
    // Writes alone do not wake it: no connection of the engine's is there to see them.
    expect(engine.database.status).toBe('idle')
    expect(await slot()).toEqual({ exists: true, active: false })

    const rows = before.rows
    const operations: string[] = []
    const resumed = stream({ offset: before.offset, handle: before.handle })
    resumed.subscribe((messages) => {
      for (const m of messages)
        if (isChangeMessage(m))
          operations.push(`${m.headers.operation} ${String(m.value.id)}`)
      applyAll(rows, messages)
    })
    const expected = await tableRows()
    await waitUntil(
      'the resumed client to hold the table',
      () => JSON.stringify(sorted(rows.values())) === JSON.stringify(expected),
      15_000,
    )
    expect(operations).toEqual([
      'insert 10',
      'update 10',
      'delete 2',
      'insert 2',
      'update 1',
      'update 2',
    ])
    expect(engine.database.status).toBe('active')
    expect(await slot()).toEqual({ exists: true, active: true })

    // A fresh client's Shape agrees with Postgres too.
    const shape = new Shape(stream({}))
    expect(sorted(await shape.rows)).toEqual(expected)
  }, 30_000)

  it('holds a request for a new shape while it resumes, rather than answering 503', async () => {
    await released()
    const response = await fetch(
      `${engine.shapeUrl}?table=items&where=${encodeURIComponent('id > 1')}&offset=-1`,
    )
    expect(response.status).toBe(200)
    const body = (await response.json()) as Message<Row>[]
    const expected = (await tableRows()).filter((row) => row.id > 1)
    expect(sorted(body.filter(isChangeMessage).map((m) => m.value))).toEqual(
      expected,
    )
  }, 30_000)

  it('stays streaming while a live client waits, and releases once it leaves', async () => {
    await released()
    stream({}).subscribe(() => {})
    await waitUntil(
      'the live client to park',
      () =>
        engine.database.status === 'active' &&
        engine.database.waitingRequests() > 0,
    )
    // Three timeouts with the client parked the whole time (long-polls last 20 s): the
    // stream must stay, every time it is looked at.
    const until = performance.now() + 3 * IDLE_MS
    while (performance.now() < until) {
      expect(engine.database.waitingRequests()).toBeGreaterThan(0)
      expect(engine.database.status).toBe('active')
      expect(await slot()).toEqual({ exists: true, active: true })
    }
    for (const a of aborters) a.abort()
    await released()
    expect(await slot()).toEqual({ exists: true, active: false })
  }, 30_000)
})
