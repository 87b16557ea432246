// The invalidation log: every rotation of a shape that served its snapshot, for each cause
// (clear cache, schema change, slot lost, deleted, evicted, a subquery's dependency), with the
// clients that were streaming it and the bytes they then read again from its successor, in
// `source_invalidations`, GET /api/v1/sources/{id}/invalidations and the event log.
import { ShapeStream } from '@electric-sql/client'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { replicationNames } from '../../src/engine/index.ts'
import { INVALIDATION_CAUSES } from '../../src/shared/sources.ts'
import { signInLocally, type Browser } from '../support/app.ts'
import { useControlPlaneDatabase } from '../support/database.ts'
import {
  createSourceDatabase,
  insertSource,
  personalTeam,
  sourceRow,
  startSourceServer,
  type SourceDatabase,
  type SourceServer,
} from '../support/sources.ts'

const control = useControlPlaneDatabase()
let server: SourceServer
let owner: Browser
let database: SourceDatabase
let source: { id: string; secret: string }
const aborter = new AbortController()

beforeAll(async () => {
  server = await startSourceServer(
    control.db,
    {
      liveShapesIntervalMs: 200,
      // A log past 16 KiB and twice its snapshot is replaced: the eviction below.
      shapeLimits: { logLimit: { minBytes: 16 * 1024, growthFactor: 2 } },
    },
    { controlPlaneUrl: control.url },
  )
  const signedIn = await signInLocally(server.app)
  owner = signedIn.browser
  const teamId = await personalTeam(control.db, signedIn.user.id)
  database = await createSourceDatabase()
  await database.db.query(`
    create table a (id int primary key, n int);
    create table s (id int primary key, n int);
    create table t (id int primary key, n int);
    create table e (id int primary key, body text);
    create table d (id int primary key);
    create table tags (id int primary key, d_id int);
    insert into a select g, g from generate_series(1, 3) g;
    insert into s values (1, 1);
    insert into t values (1, 1);
    insert into e values (1, 'x');
    insert into d values (1), (2);
    insert into tags values (1, 1)`)
  source = await insertSource(control.db, server.key, teamId, database.url)
  await vi.waitFor(
    async () =>
      expect((await sourceRow(control.db, source.id))?.state).toBe('active'),
    { timeout: 20_000, interval: 50 },
  )
}, 60_000)

afterAll(async () => {
  aborter.abort()
  await server?.stop()
  await database?.drop()
})

/** An official client streaming the shape, parked at its tip: its handle. */
async function streaming(table: string, where: string): Promise<string> {
  const stream = new ShapeStream({
    url: `${server.origin}/v1/shape`,
    params: {
      table,
      where,
      source_id: source.id,
      source_secret: source.secret,
    },
    signal: aborter.signal,
  })
  stream.subscribe(() => {})
  let handle = ''
  await vi.waitFor(
    () => {
      handle = stream.shapeHandle ?? ''
      expect(stream.isUpToDate).toBe(true)
      expect(server.engine.get(source.id)?.byHandle(handle)?.clients).toBe(1)
    },
    { timeout: 10_000 },
  )
  return handle
}

type Logged = {
  at: string
  handle: string
  cause: string
  clients: number
  bytes_reread: number
  detail: string | null
}

async function logged(handle: string): Promise<Logged | undefined> {
  const response = await owner.request(
    `/api/v1/sources/${source.id}/invalidations`,
  )
  expect(response.status).toBe(200)
  const rows = (await response.json()) as Logged[]
  return rows.find((row) => row.handle === handle)
}

/** Waits for the handle's rotation, logged with its cause, one client, and its re-read. */
async function expectLogged(handle: string, cause: string) {
  await vi.waitFor(
    async () =>
      expect(await logged(handle)).toMatchObject({
        at: expect.any(String),
        cause,
        clients: 1,
      }),
    { timeout: 20_000, interval: 100 },
  )
  // The client came back to the successor and read its snapshot again.
  await vi.waitFor(
    async () => expect((await logged(handle))?.bytes_reread).toBeGreaterThan(0),
    { timeout: 20_000, interval: 100 },
  )
}

const seen = new Set<string>()

describe('the invalidation log', () => {
  it('records each cause with the clients streaming and the bytes re-read', async () => {
    // Clear cache: every shape of the source, each with its client.
    const first = await streaming('a', 'n = 1')
    const second = await streaming('a', 'n = 2')
    const cleared = await owner.request(
      `/api/v1/sources/${source.id}/restart`,
      {
        method: 'POST',
        headers: { origin: owner.origin, 'content-type': 'application/json' },
        body: JSON.stringify({ clear_cache: true }),
      },
    )
    expect(cleared.status).toBe(200)
    await expectLogged(first, 'clear_cache')
    await expectLogged(second, 'clear_cache')
    seen.add('clear_cache')

    // Deleted from the dashboard's live shapes.
    const deleted = await streaming('a', 'n = 3')
    const removal = await owner.request(
      `/api/v1/sources/${source.id}/shapes/${deleted}`,
      { method: 'DELETE', headers: { origin: owner.origin } },
    )
    expect(removal.status).toBe(200)
    await expectLogged(deleted, 'deleted')
    seen.add('deleted')

    // A schema change: a column added, seen with the next change of the table.
    const altered = await streaming('s', 'n > 0')
    await database.db.query(`alter table s add column extra text`)
    await database.db.query(`insert into s values (2, 2, 'x')`)
    await expectLogged(altered, 'schema_change')
    // A truncate is one too: the rows went without a change each.
    const truncated = await streaming('t', 'n > 0')
    await database.db.query(`truncate t`)
    await expectLogged(truncated, 'schema_change')
    expect((await logged(truncated))?.detail).toBe('table truncated')
    seen.add('schema_change')

    // A subquery's table changed under it.
    const dependent = await streaming('d', 'id in (select d_id from tags)')
    await database.db.query(`alter table tags add column note text`)
    await database.db.query(`insert into tags values (2, 2, 'x')`)
    await expectLogged(dependent, 'dependency')
    seen.add('dependency')

    // Evicted: its log outgrew a fresh snapshot many times over.
    const evicted = await streaming('e', 'id = 1')
    for (let i = 0; i < 20; i++)
      await database.db.query(`update e set body = repeat($1, 1000)`, [
        String(i % 10),
      ])
    await expectLogged(evicted, 'evicted')
    seen.add('evicted')

    // The slot lost: dropped on the database, made anew; every shape starts over.
    const lost = await streaming('a', 'n >= 1')
    const { slot } = replicationNames(source.id)
    await vi.waitFor(
      async () => {
        await database.db.query(
          `select pg_terminate_backend(active_pid) from pg_replication_slots
            where slot_name = $1 and active_pid is not null`,
          [slot],
        )
        // Refused while the engine is back on it: terminated and tried again.
        await database.db.query('select pg_drop_replication_slot($1)', [slot])
      },
      { timeout: 20_000, interval: 50 },
    )
    await expectLogged(lost, 'slot_lost')
    seen.add('slot_lost')

    expect([...seen].sort()).toEqual([...INVALIDATION_CAUSES].sort())

    // The event log: one line per cause at a time, with its shapes and clients.
    const { rows: events } = await control.db.query<{
      event_details: { cause: string; shapes: number }
    }>(
      `select event_details from source_event_logs
        where source_id = $1 and event_name = 'shapes_invalidated'`,
      [source.id],
    )
    expect(events.map((event) => event.event_details.cause).sort()).toEqual(
      expect.arrayContaining([...INVALIDATION_CAUSES].sort()),
    )
    expect(
      events.find((event) => event.event_details.cause === 'clear_cache')
        ?.event_details,
    ).toEqual({ cause: 'clear_cache', shapes: 2 })
  }, 180_000)
})
