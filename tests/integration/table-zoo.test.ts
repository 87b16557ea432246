// The table zoo: every kind of table a user's database may hold (tests/support/zoo-kinds.ts),
// on the embedded Postgres 18 and on Debian's own (15 on this machine kind). For each, the app
// writes a random workload (inserts, updates of keys and of other columns, deletes, a truncate,
// schema changes) before, while and after the official client follows its shapes, and every
// one of its statements must succeed; the client's rows must then equal SELECT of the same
// rows (count and checksum). Tables Postgres cannot replicate are refused with the reason and
// left as they were.
import { createHash } from 'node:crypto'
import { Shape, ShapeStream, type Row } from '@electric-sql/client'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { SESSION_OPTIONS } from '../../src/engine/database-config.ts'
import {
  startDebianPostgres,
  type DebianPostgres,
} from '../../scripts/debian-postgres.ts'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'
import {
  Rand,
  refusedKinds,
  zooKinds,
  type ZooColumn,
  type ZooKind,
  type ZooShape,
} from '../support/zoo-kinds.ts'

const SEED = Number(process.env.ZOO_SEED ?? 20261128)
const WRITES_BEFORE = 10
const WRITES_WHILE = 48
const WRITES_AFTER = 12

// Values stay Postgres's text, as SELECT ... ::text renders them: compared as they are.
const asText = (value: string) => value
const TEXT_PARSER = Object.fromEntries(
  ['int2', 'int4', 'int8', 'float4', 'float8', 'bool', 'json', 'jsonb'].map(
    (type) => [type, asText],
  ),
)

type Server = { name: string; major: number; adminUrl: () => string }

const debian: { current?: DebianPostgres } = {}
const servers: Server[] = [
  {
    name: 'Postgres 18 (embedded)',
    major: 18,
    adminUrl: () => inject('pgAdminUrl'),
  },
  {
    name: "Debian's Postgres",
    major: 0, // known once started
    adminUrl: () => {
      if (!debian.current) throw new Error("Debian's Postgres did not start")
      return debian.current.url
    },
  },
]

beforeAll(async () => {
  debian.current = await startDebianPostgres()
  const server = servers[1] as Server
  server.major = debian.current.major
  server.name = `Postgres ${debian.current.major} (Debian)`
}, 60_000)

afterAll(async () => {
  await debian.current?.stop()
})

/** One line per row, keys sorted, values as text (arrays as lists of text): comparable. */
const canonical = (row: Record<string, unknown>) =>
  JSON.stringify(
    Object.fromEntries(
      Object.entries(row).sort(([a], [b]) => (a < b ? -1 : 1)),
    ),
  )

const summary = (lines: string[]) => {
  const sorted = [...lines].sort()
  return {
    count: sorted.length,
    checksum: createHash('sha256').update(sorted.join('\n')).digest('hex'),
    // Shown only when they differ: the first rows, to read the difference.
    first: sorted.slice(0, 3),
  }
}

async function selected(client: pg.Client, shape: ZooShape): Promise<string[]> {
  const from = shape.from ?? shape.table
  const { rows: columns } = await client.query<{
    name: string
    array: boolean
  }>(
    `select a.attname as name, t.typcategory = 'A' as array
       from pg_attribute a join pg_type t on t.oid = a.atttypid
      where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped
      order by a.attnum`,
    [from],
  )
  const wanted = columns.filter(
    (c) => !shape.columns || shape.columns.includes(c.name),
  )
  const quote = (name: string) => `"${name.replaceAll('"', '""')}"`
  const fields = wanted.map(
    (c) =>
      `'${c.name.replaceAll("'", "''")}', ` +
      (c.array
        ? `array_to_json(${quote(c.name)}::text[])`
        : `${quote(c.name)}::text`),
  )
  const { rows } = await client.query<{ row: string }>(
    `select json_build_object(${fields.join(', ')})::text as row from ${from}`,
  )
  return rows.map((r) =>
    canonical(JSON.parse(r.row) as Record<string, unknown>),
  )
}

/** A relation's replica identity and whether a publication holds it. */
async function setupOf(client: pg.Client, table: string) {
  const { rows } = await client.query(
    `select c.relreplident as identity,
            exists (select 1 from pg_publication_rel r where r.prrelid = c.oid) as published
       from pg_class c where c.oid = $1::regclass`,
    [table],
  )
  return rows[0] as { identity: string; published: boolean }
}

type Writer = {
  next: number
  live: number[]
  columns: ZooColumn[]
}

const where = (pairs: Array<[string, string]>) =>
  pairs.map(([column, value]) => `${column} = ${value}`).join(' and ')

/** The app's next statement: every one must succeed, whatever Sluice is doing. */
function statement(kind: ZooKind, r: Rand, w: Writer): string {
  const p = r.next()
  const insert = () => {
    const n = w.next++
    w.live.push(n)
    const pairs = [
      ...kind.key(n),
      ...w.columns.map((c) => [c.name, c.value(r)] as [string, string]),
    ]
    return `insert into ${kind.target} (${pairs.map(([c]) => c).join(', ')}) values (${pairs.map(([, v]) => v).join(', ')})`
  }
  if (w.live.length === 0 || p < 0.35) return insert()
  const at = r.int(0, w.live.length - 1)
  const n = w.live[at] as number
  if (p < 0.65) {
    const set = w.columns.filter(() => r.chance(0.5))
    const chosen = set.length > 0 ? set : [r.pick(w.columns)]
    return `update ${kind.target} set ${chosen.map((c) => `${c.name} = ${c.value(r)}`).join(', ')} where ${where(kind.key(n))}`
  }
  if (p < 0.78) {
    const m = w.next++
    w.live[at] = m
    return `update ${kind.target} set ${kind
      .key(m)
      .map(([c, v]) => `${c} = ${v}`)
      .join(', ')} where ${where(kind.key(n))}`
  }
  if (p < 0.92) {
    w.live.splice(at, 1)
    return `delete from ${kind.target} where ${where(kind.key(n))}`
  }
  // Several statements in one transaction.
  return `begin; ${insert()}; ${insert()}; ${statement(kind, r, w)}; commit`
}

async function write(
  app: pg.Client,
  kind: ZooKind,
  r: Rand,
  w: Writer,
  from: number,
  count: number,
  truncateAt?: number,
) {
  for (let i = from; i < from + count; i++) {
    const change = kind.changes?.find((c) => c.at === i)
    if (change) {
      await app.query(change.sql)
      w.columns = change.columns
    }
    const sql =
      i === truncateAt ? `truncate ${kind.target}` : statement(kind, r, w)
    if (i === truncateAt) w.live = []
    await app.query(sql).catch((error: Error) => {
      throw new Error(`the app's statement failed: ${sql}\n${error.message}`)
    })
  }
}

function follow(url: string, shape: ZooShape, streams: AbortController[]) {
  const aborter = new AbortController()
  streams.push(aborter)
  return new Shape(
    new ShapeStream({
      url,
      params: {
        table: shape.table,
        ...(shape.columns ? { columns: shape.columns } : {}),
      },
      parser: TEXT_PARSER,
      signal: aborter.signal,
    }),
  )
}

async function converged(client: pg.Client, pairs: Array<[ZooShape, Shape]>) {
  for (const [zooShape, shape] of pairs) {
    const expected = summary(await selected(client, zooShape))
    await expect
      .poll(
        () => summary(shape.currentRows.map((row: Row) => canonical(row))),
        {
          timeout: 20_000,
          message: `${zooShape.table}: the client's rows equal SELECT`,
        },
      )
      .toEqual(expected)
  }
}

describe.each(servers)('the table zoo on $name', (server) => {
  let source: TestDatabase
  let engine: TestEngine
  let app: pg.Client
  const streams: AbortController[] = []

  beforeAll(async () => {
    source = await createTestDatabase(server.adminUrl())
    app = new pg.Client({
      connectionString: source.url,
      options: SESSION_OPTIONS,
    })
    await app.connect()
    engine = await startTestEngine(source.url)
  }, 60_000)

  afterAll(async () => {
    for (const c of streams) c.abort()
    await app?.end()
    await engine?.destroy()
    await source?.drop()
  })

  it("follows every kind of table, and the app's writes all succeed", async () => {
    for (const kind of zooKinds(server.major)) {
      const r = new Rand(SEED + kind.name.length)
      const w: Writer = { next: 1, live: [], columns: kind.columns }
      await app.query(kind.ddl)
      await write(app, kind, r, w, 0, WRITES_BEFORE)
      const shapes = kind.shapes.map(
        (s) => [s, follow(engine.shapeUrl, s, streams)] as [ZooShape, Shape],
      )
      for (const [, shape] of shapes) await shape.rows
      await write(
        app,
        kind,
        r,
        w,
        WRITES_BEFORE,
        WRITES_WHILE,
        WRITES_BEFORE + 30,
      )
      await converged(app, shapes)
      await write(app, kind, r, w, WRITES_BEFORE + WRITES_WHILE, WRITES_AFTER)
      await converged(app, shapes)
    }
  }, 240_000)

  it('refuses tables Postgres cannot replicate, saying why, and leaves them as they were', async () => {
    for (const refused of refusedKinds(server.major)) {
      await app.query(refused.ddl)
      const before = await setupOf(app, refused.table)
      const answer = await fetch(
        `${engine.shapeUrl}?table=${refused.table}&offset=-1`,
      )
      expect(answer.status, refused.name).toBe(refused.status)
      expect(JSON.stringify(await answer.json()), refused.name).toMatch(
        /view|unlogged|virtual generated/,
      )
      expect(await setupOf(app, refused.table), refused.name).toEqual(before)
      await app.query(refused.writes)
    }
  })
})
