// The shape explorer's reads of a source's own database: GET /api/v1/sources/:id/schema (the
// tables the source's role can read) and /count (the rows a shape would hold, or the planner's
// estimate far above the row limit or when counting takes too long). Both are for the source's
// team only, answer at once for a source that is not active, and read through a small read-only
// pool per source that goes through the address guard and closes when the source stops being
// active.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { AddressRefusedError } from '../../src/engine/pg/pinned-socket.ts'
import { signInLocally, type Browser } from '../support/app.ts'
import { useControlPlaneDatabase } from '../support/database.ts'
import {
  createSourceDatabase,
  insertSource,
  personalTeam,
  privateTargetsAllowed,
  sourceRow,
  startSourceServer,
  type SourceDatabase,
  type SourceServer,
} from '../support/sources.ts'

const control = useControlPlaneDatabase()
let server: SourceServer
let owner: Browser
let teamId: string
let database: SourceDatabase
let source: { id: string; secret: string }
const databases: SourceDatabase[] = []

// A host name only this file's pinner knows: it pins it to loopback, or refuses it on demand.
const GUARDED_HOST = 'guarded-source.test'
let refuseGuardedHost = false

// Short enough that the estimate tests stay quick, long enough for any real count here.
const COUNT_TIMEOUT_MS = 1_000

beforeAll(async () => {
  server = await startSourceServer(control.db, {
    pinHost: async (host) => {
      if (host !== GUARDED_HOST) return privateTargetsAllowed(host)
      if (refuseGuardedHost) throw new AddressRefusedError()
      return '127.0.0.1'
    },
    explorer: {
      countTimeoutMs: COUNT_TIMEOUT_MS,
      statementTimeoutMs: COUNT_TIMEOUT_MS,
    },
  })
  const signedIn = await signInLocally(server.app)
  owner = signedIn.browser
  teamId = await personalTeam(control.db, signedIn.user.id)
  database = await createSourceDatabase()
  databases.push(database)
  await database.db.query(`
    create table items (id int primary key, title text not null, n int);
    insert into items select g, 'item ' || g, g % 3 from generate_series(1, 10) g;
    create view items_view as select * from items;
    create materialized view items_matview as select * from items;
    create table events (id int, kind text) partition by list (kind);
    create table events_a partition of events for values in ('a');
    insert into events values (1, 'a'), (2, 'a');
    create schema "Other";
    create table "Other"."Mixed ""Case""" (id int);
    insert into "Other"."Mixed ""Case""" values (1), (2), (3);
    create table slow (n int);
    insert into slow select g from generate_series(1, 1000) g;
    analyze slow;`)
  // The superuser's own tables: one the role may not read, and one it may read in a schema
  // it may not use.
  await database.admin.query(`
    create table admin_only (id int);
    create schema closed;
    create table closed.granted (id int);
    grant select on closed.granted to ${database.role};`)
  source = await activeSource(database)
}, 60_000)

afterAll(async () => {
  await server?.stop()
  for (const db of databases) await db.drop()
})

async function activeSource(db: SourceDatabase, url = db.url) {
  const added = await insertSource(control.db, server.key, teamId, url)
  await vi.waitFor(
    async () =>
      expect((await sourceRow(control.db, added.id))?.state).toBe('active'),
    { timeout: 20_000, interval: 50 },
  )
  return added
}

type Answer = { status: number; body: unknown; headers: Headers }

/** A GET whose answer must never carry any source's password. */
async function get(path: string, browser = owner): Promise<Answer> {
  const response = await browser.get(path)
  const text = await response.text()
  for (const db of databases) {
    expect(text).not.toContain(db.password)
    expect(text).not.toContain(encodeURIComponent(db.password))
  }
  return {
    status: response.status,
    body: JSON.parse(text) as unknown,
    headers: response.headers,
  }
}

const schemaOf = (id: string, browser = owner) =>
  get(`/api/v1/sources/${id}/schema`, browser)

function countOf(
  id: string,
  query: Record<string, string>,
  browser = owner,
): Promise<Answer> {
  return get(
    `/api/v1/sources/${id}/count?${new URLSearchParams(query)}`,
    browser,
  )
}

/** Backends the explorer holds open in a source database, seen by the superuser. */
async function explorerConnections(db: SourceDatabase): Promise<number> {
  const { rows } = await db.admin.query<{ n: number }>(
    `select count(*)::int as n from pg_stat_activity
      where application_name = 'sluice-explorer' and datname = current_database()`,
  )
  return rows[0]?.n ?? 0
}

describe('GET /api/v1/sources/:id/schema', () => {
  it('lists the tables and partitioned tables the role can read, sorted, and nothing else', async () => {
    // A temporary table lives in a pg_temp schema: it must not show either.
    const client = await database.db.connect()
    try {
      await client.query('create temp table scratch (id int)')
      const answer = await schemaOf(source.id)
      expect(answer.status).toBe(200)
      expect(answer.body).toEqual([
        { schema: 'Other', name: 'Mixed "Case"' },
        { schema: 'public', name: 'events' },
        { schema: 'public', name: 'events_a' },
        { schema: 'public', name: 'items' },
        { schema: 'public', name: 'slow' },
      ])
    } finally {
      client.release()
    }
  })

  it('answers another team’s source, an unknown id and a malformed id with 404', async () => {
    const { browser: stranger } = await signInLocally(server.app, 'Mallory')
    for (const [id, browser] of [
      [source.id, stranger],
      [crypto.randomUUID(), owner],
      ['not-a-uuid', owner],
    ] as const) {
      const answer = await schemaOf(id, browser)
      expect(answer.status).toBe(404)
      expect(answer.body).toEqual({ message: 'Source not found' })
    }
  })

  it('needs a signed-in user', async () => {
    const response = await server.app.request(
      `http://localhost/api/v1/sources/${source.id}/schema`,
    )
    expect(response.status).toBe(401)
  })
})

describe('GET /api/v1/sources/:id/count', () => {
  it('counts a table’s rows, with a where clause, and with params', async () => {
    expect(
      (await countOf(source.id, { schema: 'public', name: 'items' })).body,
    ).toEqual({ count: 10 })
    expect(
      (
        await countOf(source.id, {
          schema: 'public',
          name: 'items',
          where: 'n = 0',
        })
      ).body,
    ).toEqual({ count: 3 })
    const withParams = await countOf(source.id, {
      schema: 'public',
      name: 'items',
      where: 'title = $1 or id > $2',
      'params[1]': 'item 2',
      'params[2]': '8',
    })
    expect(withParams).toMatchObject({ status: 200, body: { count: 3 } })
  })

  it('counts with a subquery, as /v1/shape would serve it', async () => {
    const answer = await countOf(source.id, {
      schema: 'public',
      name: 'items',
      where: 'id in (select id from items where n = $1)',
      'params[1]': '0',
    })
    expect(answer).toMatchObject({ status: 200, body: { count: 3 } })
  })

  it('binds params as values: SQL in a param is only text', async () => {
    const answer = await countOf(source.id, {
      schema: 'public',
      name: 'items',
      where: 'title = $1',
      'params[1]': "x' or '1'='1",
    })
    expect(answer.body).toEqual({ count: 0 })
  })

  it('quotes the table’s names, and counts a partitioned table', async () => {
    expect(
      (await countOf(source.id, { schema: 'Other', name: 'Mixed "Case"' }))
        .body,
    ).toEqual({ count: 3 })
    expect(
      (await countOf(source.id, { schema: 'public', name: 'events' })).body,
    ).toEqual({ count: 2 })
  })

  it('refuses a where clause outside the subset with /v1/shape’s own 400, with the location', async () => {
    const where = 'id = 1)'
    const answer = await countOf(source.id, {
      schema: 'public',
      name: 'items',
      where,
    })
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual({
      message: 'Invalid request',
      errors: { where: ['At location 21: syntax error at or near ")"'] },
    })
    const shape = await fetch(
      `${server.origin}/v1/shape?${new URLSearchParams({
        table: 'items',
        offset: '-1',
        where,
        source_id: source.id,
        source_secret: source.secret,
      })}`,
    )
    expect(shape.status).toBe(400)
    expect(await shape.json()).toEqual(answer.body)
  })

  it.each([
    ['pg_sleep', 'pg_sleep(10) is not null', /unsupported function pg_sleep/],
    ['a subquery without a table', 'id in (select 1)', /single table/],
    [
      'an EXISTS subquery',
      'exists (select 1)',
      /only `value IN \(SELECT ...\)` sublinks are supported/,
    ],
    [
      'a subquery of a missing table',
      'id in (select id from nope)',
      /Table "public"."nope" does not exist/,
    ],
    ['now()', 'now() is not null', /non-deterministic functions/],
    [
      'current_setting()',
      "current_setting('is_superuser') = 'on'",
      /non-deterministic functions/,
    ],
    ['an unknown function', 'lo_import(title) > 0', /unsupported function/],
    ['a second statement', 'true; drop table items', /statement split/],
    ['an unknown column', 'nope = 1', /column "nope" does not exist/],
    ['an unused param', 'id = 1', /\$1 was not used/],
  ])('refuses %s with a 400 on where', async (_label, where, message) => {
    const answer = await countOf(source.id, {
      schema: 'public',
      name: 'items',
      where,
      ...(where === 'id = 1' ? { 'params[1]': '1' } : {}),
    })
    expect(answer.status).toBe(400)
    const body = answer.body as {
      message: string
      errors: { where: string[] }
    }
    expect(body.message).toBe('Invalid request')
    expect(body.errors.where[0]).toMatch(message)
    // Nothing ran: the table is still there.
    expect(
      (await countOf(source.id, { schema: 'public', name: 'items' })).body,
    ).toEqual({ count: 10 })
  })

  it.each([
    ['a missing table', 'public', 'nothing_here', /does not exist/],
    ['a view', 'public', 'items_view', /does not exist/],
    ['a materialized view', 'public', 'items_matview', /does not exist/],
    ['a table the role may not read', 'public', 'admin_only', /may not read/],
    [
      'a table in a schema the role may not use',
      'closed',
      'granted',
      /may not read/,
    ],
  ])(
    'refuses %s with a 400 on table',
    async (_label, schema, name, message) => {
      const answer = await countOf(source.id, { schema, name })
      expect(answer.status).toBe(400)
      const body = answer.body as { errors: { table: string[] } }
      expect(body.errors.table[0]).toMatch(message)
    },
  )

  it('names what is missing from the query', async () => {
    const answer = await countOf(source.id, { schema: 'public' })
    expect(answer).toMatchObject({
      status: 400,
      body: {
        message: 'Invalid request',
        errors: { name: ["can't be blank"] },
      },
    })
    const gap = await countOf(source.id, {
      schema: 'public',
      name: 'items',
      where: 'id = $1',
      'params[2]': '1',
    })
    expect(gap.status).toBe(400)
    expect(gap.body).toMatchObject({ errors: { params: [expect.any(String)] } })
  })

  it('refuses a NUL in any parameter, naming it (Postgres text cannot hold one)', async () => {
    const table = { schema: 'public', name: 'items' }
    const refused = (param: string) => ({
      status: 400,
      body: {
        message: 'Invalid request',
        errors: { [param]: ['must not contain a NUL character'] },
      },
    })
    for (const [param, query] of [
      ['schema', { ...table, schema: 'pub\0lic' }],
      ['name', { ...table, name: 'it\0ems' }],
      ['where', { ...table, where: "title = 'item\0'" }],
      ['params', { ...table, where: 'title = $1', 'params[1]': 'item\0' }],
      ['params', { ...table, where: 'title = $1', params: '["item\\u0000"]' }],
    ] as const)
      expect(await countOf(source.id, query), param).toMatchObject(
        refused(param),
      )
  })

  it('answers another team’s source with 404', async () => {
    const { browser: stranger } = await signInLocally(server.app, 'Eve')
    const answer = await countOf(
      source.id,
      { schema: 'public', name: 'items' },
      stranger,
    )
    expect(answer.status).toBe(404)
    expect(answer.body).toEqual({ message: 'Source not found' })
  })

  it('answers the planner’s estimate, marked, when counting takes longer than its limit', async () => {
    // Each row costs Postgres milliseconds of numeric arithmetic: 1,000 of them outlast the
    // limit (here over 20 s), while planning the same query costs nothing. The power stays
    // within numeric's range for every row: with ^ 100000 the row n = 20 overflowed, and a
    // count that reached it inside the limit (the first 19 rows took 0.9 s) failed with 400.
    const answer = await countOf(source.id, {
      schema: 'public',
      name: 'slow',
      where: '(n::numeric + 0.5) ^ 30000 > 0',
    })
    expect(answer.status).toBe(200)
    const body = answer.body as { count: number; estimate: boolean }
    expect(body.estimate).toBe(true)
    // The where clause's estimate, not the table's size.
    expect(body.count).toBeGreaterThan(0)
    expect(body.count).toBeLessThan(1000)
  })

  it('answers the planner’s estimate, marked, for a table far above the row limit, and counts a few of its rows', async () => {
    // 300,000 rows: counted well inside the limit, so only their number makes the answer an
    // estimate (the bound is 100 × the shape row limit of 1,000).
    await database.db.query(`
      create table big (id int);
      insert into big select g from generate_series(1, 300000) g;
      analyze big;`)
    try {
      const answer = await countOf(source.id, { schema: 'public', name: 'big' })
      expect(answer.status).toBe(200)
      const body = answer.body as { count: number; estimate: boolean }
      expect(body.estimate).toBe(true)
      expect(body.count).toBeGreaterThan(150_000)
      expect(body.count).toBeLessThan(600_000)
      // The where clause's estimate is far below the bound: an exact count, unmarked.
      const few = await countOf(source.id, {
        schema: 'public',
        name: 'big',
        where: 'id <= 5',
      })
      expect(few).toMatchObject({ status: 200 })
      expect(few.body).toEqual({ count: 5 })
    } finally {
      await database.db.query('drop table big')
    }
  })

  it('falls back to the table’s statistics when even planning must wait (a lock)', async () => {
    const locker = await database.admin.connect()
    try {
      await locker.query('begin')
      await locker.query('lock table slow in access exclusive mode')
      const answer = await countOf(source.id, {
        schema: 'public',
        name: 'slow',
      })
      expect(answer).toMatchObject({
        status: 200,
        body: { count: 1000, estimate: true },
      })
    } finally {
      await locker.query('rollback')
      locker.release()
    }
  })
})

describe('a source that is not active', () => {
  it('answers 409 at once while it cannot connect', async () => {
    const url = new URL(database.url)
    // Nothing listens on port 1: the source never becomes active.
    url.port = '1'
    const stuck = await insertSource(
      control.db,
      server.key,
      teamId,
      url.toString(),
    )
    for (const answer of [
      await schemaOf(stuck.id),
      await countOf(stuck.id, { schema: 'public', name: 'items' }),
    ]) {
      expect(answer.status).toBe(409)
      expect((answer.body as { message: string }).message).toMatch(
        /^The source is not active/,
      )
    }
  })

  it('answers 409 once it is deleted, and its pool is closed', async () => {
    const db = await createSourceDatabase()
    databases.push(db)
    await db.db.query('create table t (id int)')
    const doomed = await activeSource(db)
    expect((await schemaOf(doomed.id)).body).toEqual([
      { schema: 'public', name: 't' },
    ])
    expect(await explorerConnections(db)).toBe(1)
    const deleted = await owner.request(`/api/v1/sources/${doomed.id}`, {
      method: 'DELETE',
      headers: { origin: owner.origin },
    })
    expect(deleted.status).toBe(200)
    // Until the row goes, the source answers as deleted; then as missing.
    expect([409, 404]).toContain((await schemaOf(doomed.id)).status)
    await vi.waitFor(
      async () => expect(await explorerConnections(db)).toBe(0),
      { timeout: 10_000, interval: 50 },
    )
  }, 30_000)
})

describe('the explorer’s connections', () => {
  it('are a few per source, reused across requests', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        countOf(source.id, { schema: 'public', name: 'items' }),
      ),
    )
    for (const answer of answers) expect(answer.body).toEqual({ count: 10 })
    const open = await explorerConnections(database)
    expect(open).toBeGreaterThan(0)
    expect(open).toBeLessThanOrEqual(2)
  })

  it('close when the source stops being active', async () => {
    const db = await createSourceDatabase()
    databases.push(db)
    const lapsing = await activeSource(db)
    expect((await schemaOf(lapsing.id)).status).toBe(200)
    expect(await explorerConnections(db)).toBe(1)
    // Ending the replication connection makes the source reconnect: not active meanwhile.
    await db.admin.query(
      `select pg_terminate_backend(active_pid) from pg_replication_slots
        where database = current_database() and active_pid is not null`,
    )
    await vi.waitFor(
      async () => expect(await explorerConnections(db)).toBe(0),
      { timeout: 10_000, interval: 50 },
    )
  }, 30_000)

  it('go through the address guard on every connect', async () => {
    const db = await createSourceDatabase()
    databases.push(db)
    const url = new URL(db.url)
    url.hostname = GUARDED_HOST
    const guarded = await activeSource(db, url.toString())
    // The engine's replication connection is open; the explorer's first one is not yet.
    refuseGuardedHost = true
    try {
      const answer = await schemaOf(guarded.id)
      expect(answer.status).toBe(503)
      expect((answer.body as { message: string }).message).toMatch(
        /resolves to an address Sluice may not connect to/,
      )
    } finally {
      refuseGuardedHost = false
    }
    expect((await schemaOf(guarded.id)).status).toBe(200)
  }, 30_000)
})
