// Request parameters read as Electric reads them (docs/protocol.md, Requests): the secret's
// older name, boolean flags, queryable columns, POST bodies holding shape parameters, and the
// type details of the electric-schema header. Raw HTTP against the engine's own server.
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEngineServer } from '../../src/engine/http/node-listener.ts'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'

let source: TestDatabase
let engine: TestEngine

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(`
    create table items (id int primary key, title text, secret text, rank int);
    insert into items values (1, 'one', 'red', 10), (2, 'two', 'blue', 20), (3, 'three', 'red', 30);
    create table keyless (a int, b text);
    create table typed (
      id int primary key, v varchar(10), c char(3), n numeric(10, 2), n2 numeric,
      t timestamp(3), tz timestamptz, tm time(0), i interval day to second(2),
      i2 interval(4), i3 interval year, b bit(5), vb varbit(8), vb2 varbit,
      arr varchar(7)[], ts timetz(6))`)
  engine = await startTestEngine(source.url)
}, 60_000)

afterAll(async () => {
  await engine?.destroy()
  await source?.drop()
})

const get = (query: string, init?: RequestInit) =>
  fetch(`${engine.shapeUrl}?${query}`, init)

type Invalid = { message: string; errors: Record<string, unknown> }

describe('the secret', () => {
  it('is taken as api_secret too, and secret wins when both are given', async () => {
    const server = createEngineServer({
      database: engine.database,
      secret: 's3cret',
    })
    await new Promise<void>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve()),
    )
    const { port } = server.address() as AddressInfo
    const status = async (query: string, init?: RequestInit) =>
      (
        await fetch(
          `http://127.0.0.1:${port}/v1/shape?table=items&offset=-1&${query}`,
          init,
        )
      ).status
    try {
      // The server's direct path (GET) and the app's (POST, an SSE request).
      expect(await status('api_secret=s3cret')).toBe(200)
      expect(await status('api_secret=s3cret', { method: 'POST' })).toBe(200)
      expect(await status('api_secret=wrong')).toBe(401)
      expect(await status('secret=s3cret&api_secret=wrong')).toBe(200)
      expect(await status('secret=wrong&api_secret=s3cret')).toBe(401)
      expect(
        await status('secret=wrong&api_secret=s3cret', { method: 'POST' }),
      ).toBe(401)
      // A POST body's keys join the shape's parameters, never the credentials.
      expect(
        await status('', {
          method: 'POST',
          body: JSON.stringify({ secret: 's3cret', api_secret: 's3cret' }),
        }),
      ).toBe(401)
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

describe('boolean parameters', () => {
  it('refuses experimental_compaction and experimental_live_sse that are not booleans', async () => {
    const compaction = await get(
      'table=items&offset=-1&experimental_compaction=banana',
    )
    expect(compaction.status).toBe(400)
    expect(((await compaction.json()) as Invalid).errors).toEqual({
      experimental_compaction: ['is invalid'],
    })
    for (const value of ['true', '1', 'false', '0', ''])
      expect(
        (await get(`table=items&offset=-1&experimental_compaction=${value}`))
          .status,
      ).toBe(200)
    const sse = await get('table=items&offset=-1&experimental_live_sse=banana')
    expect(sse.status).toBe(400)
    expect(((await sse.json()) as Invalid).errors).toEqual({
      live_sse: ['is invalid'],
    })
    // `0` is false, as Electric casts it: no stream, and no live_sse error without live.
    expect(
      (await get('table=items&offset=-1&experimental_live_sse=0')).status,
    ).toBe(200)
  })

  it('reads live and live_sse as Electric does on a read: anything but false is true', async () => {
    const live = await get('table=items&offset=-1&live=banana')
    expect(live.status).toBe(400)
    expect(((await live.json()) as Invalid).errors).toEqual({
      live: ["can't be true when offset == -1"],
    })
  })

  it('refuses a malformed flag on DELETE, by definition or by handle', async () => {
    for (const query of [
      'table=items&live=banana',
      'handle=nothing&live_sse=maybe',
      'table=items&experimental_compaction=2',
    ]) {
      const refused = await get(query, { method: 'DELETE' })
      expect(refused.status).toBe(400)
      const name = /(live_sse|live|experimental_compaction)=/.exec(query)?.[1]
      expect(((await refused.json()) as Invalid).errors).toEqual({
        [name ?? '']: ['is invalid'],
      })
    }
  })
})

type Row = { value?: Record<string, unknown> }
const enc = encodeURIComponent

/** A subset of the shape `shape` (query text), by GET from offset -1. */
const subset = (shape: string, subsetQuery: string) =>
  get(`table=items&${shape}&offset=-1&${subsetQuery}`)

describe('queryable_columns', () => {
  it('limits what a subset may filter and order by, and is what is sent without columns', async () => {
    const shape = 'queryable_columns=id,title'
    const first = await get(`table=items&${shape}&offset=-1`)
    expect(first.status).toBe(200)
    expect(
      Object.keys(JSON.parse(first.headers.get('electric-schema') ?? '{}')),
    ).toEqual(['id', 'title'])
    const rows = ((await first.json()) as Row[]).filter((m) => m.value)
    expect(rows.map((m) => Object.keys(m.value ?? {}).sort())).toEqual([
      ['id', 'title'],
      ['id', 'title'],
      ['id', 'title'],
    ])
    const bySecret = await subset(
      shape,
      `subset__where=${enc("secret = 'red'")}`,
    )
    expect(bySecret.status).toBe(400)
    expect(((await bySecret.json()) as Invalid).errors).toEqual({
      subset: { where: [expect.stringContaining('secret')] },
    })
    const orderedBySecret = await subset(shape, 'subset__order_by=secret')
    expect(orderedBySecret.status).toBe(400)
    expect(((await orderedBySecret.json()) as Invalid).errors).toEqual({
      subset: { order_by: [expect.stringContaining('secret')] },
    })
    const byTitle = await subset(shape, `subset__where=${enc("title = 'one'")}`)
    expect(byTitle.status).toBe(200)
    const { data } = (await byTitle.json()) as { data: Row[] }
    expect(data.map((m) => m.value)).toEqual([{ id: '1', title: 'one' }])
  })

  it('may be wider than columns: a subset filters on a queryable column not sent', async () => {
    const shape = 'columns=id,title&queryable_columns=id,title,rank'
    const ranked = await subset(
      shape,
      `subset__where=${enc('rank > 15')}&subset__order_by=rank`,
    )
    expect(ranked.status).toBe(200)
    const { data } = (await ranked.json()) as { data: Row[] }
    expect(data.map((m) => m.value)).toEqual([
      { id: '2', title: 'two' },
      { id: '3', title: 'three' },
    ])
    expect(
      (await subset(shape, `subset__where=${enc("secret = 'red'")}`)).status,
    ).toBe(400)
  })

  it('does not limit the shape’s own where, and makes a shape of its own', async () => {
    const plain = await get(
      `table=items&where=${enc("secret = 'red'")}&offset=-1`,
    )
    const narrowed = await get(
      `table=items&where=${enc("secret = 'red'")}&queryable_columns=id,title&offset=-1`,
    )
    expect(narrowed.status).toBe(200)
    expect(narrowed.headers.get('electric-handle')).not.toBe(
      plain.headers.get('electric-handle'),
    )
    const rows = ((await narrowed.json()) as Row[]).filter((m) => m.value)
    expect(rows.map((m) => m.value)).toEqual([
      { id: '1', title: 'one' },
      { id: '3', title: 'three' },
    ])
  })

  it('is checked against the table and the primary key, and columns against it, in Electric’s words', async () => {
    const cases: Array<[string, Record<string, string[]>]> = [
      [
        'queryable_columns=title',
        {
          queryable_columns: [
            'The list of queryable columns must include all primary key columns, missing: id',
          ],
        },
      ],
      [
        'queryable_columns=id,nope',
        {
          queryable_columns: [
            'The following queryable columns are not found on the table: nope',
          ],
        },
      ],
      [
        'queryable_columns=id,title&columns=id,secret',
        {
          columns: ['The following columns are not found on the table: secret'],
        },
      ],
      ['queryable_columns=id,', { queryable_columns: [expect.any(String)] }],
    ]
    for (const [query, errors] of cases) {
      const refused = await get(`table=items&${query}&offset=-1`)
      expect(refused.status, query).toBe(400)
      expect(((await refused.json()) as Invalid).errors, query).toEqual(errors)
    }
  })

  it('must name every column of a table without a primary key, whose rows are keyed by them all', async () => {
    const refused = await get('table=keyless&queryable_columns=a&offset=-1')
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as Invalid).errors).toEqual({
      queryable_columns: [expect.stringContaining('missing: b')],
    })
    expect(
      (await get('table=keyless&queryable_columns=a,b&offset=-1')).status,
    ).toBe(200)
  })

  it('defaults to the columns the shape sends: without it a subset cannot search a column left out', async () => {
    const hidden = await subset(
      'columns=id,title',
      `subset__where=${enc("secret = 'red'")}`,
    )
    expect(hidden.status).toBe(400)
  })
})

describe('a POST body', () => {
  const post = (query: string, body: unknown) =>
    get(query, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  const ids = async (answer: Response) =>
    ((await answer.json()) as { data: Row[] }).data.map((m) => m.value?.id)

  it('may hold the shape: its subset keys are the subset, the others join the query', async () => {
    const subsetOnly = await post('offset=-1', {
      table: 'items',
      where: 'id = 2',
    })
    expect(subsetOnly.status).toBe(200)
    expect(subsetOnly.headers.get('electric-snapshot')).toBe('true')
    expect(await ids(subsetOnly)).toEqual(['2'])
    // No subset key: a plain read of the shape the body names.
    const plain = await post('offset=-1', {
      table: 'items',
      columns: ['id', 'title'],
    })
    expect(plain.status).toBe(200)
    expect(plain.headers.has('electric-snapshot')).toBe(false)
    expect(
      Object.keys(JSON.parse(plain.headers.get('electric-schema') ?? '{}')),
    ).toEqual(['id', 'title'])
    const same = await get('table=items&columns=id,title&offset=-1')
    expect(plain.headers.get('electric-handle')).toBe(
      same.headers.get('electric-handle'),
    )
  })

  it('with a subset object, holds the shape’s own where beside it', async () => {
    const answer = await post('offset=-1', {
      table: 'items',
      where: 'rank > 15',
      params: {},
      subset: { where: 'id <> $1', params: ['3'] },
    })
    expect(answer.status).toBe(200)
    expect(await ids(answer)).toEqual(['2'])
    const shape = await get(`table=items&where=${enc('rank > 15')}&offset=-1`)
    expect(answer.headers.get('electric-handle')).toBe(
      shape.headers.get('electric-handle'),
    )
  })

  it('overrides the query: its shape keys over the query’s, its subset keys over subset__*', async () => {
    const answer = await post(
      `table=nope&offset=-1&subset__order_by=id&subset__limit=1&subset__where=${enc('id = 1')}`,
      { table: 'items', where: 'rank > 15' },
    )
    expect(answer.status).toBe(200)
    expect(await ids(answer)).toEqual(['2'])
  })

  it('refuses a value of the wrong type under its name, as Electric', async () => {
    const answer = await post('offset=-1', { table: 5, replica: ['full'] })
    expect(answer.status).toBe(400)
    expect(((await answer.json()) as Invalid).errors).toEqual({
      table: ['is invalid'],
      replica: ['is invalid'],
    })
  })
})

describe('the electric-schema header', () => {
  it('carries lengths, precisions, scales and interval fields under Electric’s keys', async () => {
    const answer = await get('table=typed&offset=-1')
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.headers.get('electric-schema') ?? '')).toEqual({
      id: { type: 'int4', pk_index: 0, not_null: true },
      v: { type: 'varchar', max_length: 10 },
      c: { type: 'bpchar', length: 3 },
      n: { type: 'numeric', precision: 10, scale: 2 },
      n2: { type: 'numeric' },
      t: { type: 'timestamp', precision: 3 },
      tz: { type: 'timestamptz' },
      // Electric's own edge: a precision of 0 is a modifier of 0, passed on raw.
      tm: { type: 'time', type_mod: 0 },
      i: { type: 'interval', fields: 'DAY TO SECOND', precision: 2 },
      i2: { type: 'interval', precision: 4 },
      i3: { type: 'interval', fields: 'YEAR' },
      b: { type: 'bit', length: 5 },
      vb: { type: 'varbit', length: 8 },
      vb2: { type: 'varbit', length: -1 },
      arr: { type: 'varchar', dims: 1, max_length: 7 },
      ts: { type: 'timetz', precision: 6 },
    })
  })
})
