// The snapshot read by COPY (shapes/snapshot-copy.ts): Postgres writes each row's insert message,
// and it must be byte for byte what the engine writes for the same row read as text
// (insertMessage, shapes/changes.ts), for every kind of value; a where clause's params are
// written into the statement as literals, quotes and backslashes included; and a shape deleted
// while its snapshot is read stops the COPY, frees its connection, and leaves the next
// snapshot of it whole.
import { Shape, ShapeStream } from '@electric-sql/client'
import pg from 'pg'
import { to as copyTo } from 'pg-copy-streams'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_OPTIONS } from '../../src/engine/database-config.ts'
import { CopyBinaryRows } from '../../src/engine/pg/copy-binary.ts'
import { snapshotRecord } from '../../src/engine/shapes/changes.ts'
import { snapshotCopySql } from '../../src/engine/shapes/snapshot-copy.ts'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'
import { waitUntil } from '../support/wait.ts'

let source: TestDatabase
let engine: TestEngine

const KINDS_SQL = `
  create type mood as enum ('ok', 'sad "very"');
  create table kinds (
    id int, "k ""/x" text, b bool, i8 int8, n numeric, f float8, t text, c char(5),
    v varchar(10), ip inet, net cidr, u uuid, ts timestamptz, d date, iv interval,
    jb jsonb, js json, by bytea, ia int[], ta text[], m mood, "naïve ""col""" text,
    primary key (id, "k ""/x"));
  insert into kinds values
    (1, 'a"b/c', true, 9007199254740993, 1.50, 'NaN', E'tab\\there "q" back\\\\slash\\nline \\u0001',
     'ab', 'v', '192.168.1.1', '10.0.0.0/8', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
     '2026-11-29 12:34:56.789+02', '2026-11-29', '1 day 02:03:04',
     '{"a": [1, "x\\"y"], "ü": null}', '{ "kept" :  "as typed" }', '\\x00ff7f',
     '{1,NULL,3}', '{"a\\"b","c,d",NULL,""}', 'sad "very"', 'ünï 😀 ✓'),
    (2, '', false, -1, -0.000001, '-Infinity', '', '', '', '::1', '::/0',
     '00000000-0000-0000-0000-000000000000', '-infinity', '0001-01-01 BC', '-1 year',
     '[]', 'null', '', '{}', '{}', 'ok', ''),
    (3, 'nulls', null, null, null, null, null, null, null, null, null, null, null, null,
     null, null, null, null, null, null, null, null),
    (4, E'\\\\', true, 0, 1e20, 1e-300, 'x', 'abcde', 'ten chars!', '2001:db8::1/64', '2001:db8::/32',
     'ffffffff-ffff-ffff-ffff-ffffffffffff', 'infinity', 'infinity', '00:00:00.000001',
     '{"n": 1.0e3}', '[1, 2]', '\\x', '{{1,2},{3,4}}', '{"\\\\"}', 'ok', 'x');
  create table notes (id int primary key, title text);
  insert into notes values (1, $$it's a \\ "test"$$), (2, 'plain'), (3, $$it's$$);
  create table big (id int primary key, body text);
  insert into big select i, repeat(md5(i::text), 4) from generate_series(1, 200000) i;`

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(KINDS_SQL)
  engine = await startTestEngine(source.url)
}, 60_000)

afterAll(async () => {
  await engine?.destroy()
  await source?.drop()
})

/** A client as the engine's pool makes them: every value its text output. */
async function textClient(): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: source.url,
    options: SESSION_OPTIONS,
    types: { getTypeParser: () => (value: string) => value },
  })
  await client.connect()
  return client
}

async function copyMessages(client: pg.Client, sql: string): Promise<string[]> {
  const reader = new CopyBinaryRows()
  const messages: string[] = []
  for await (const chunk of client.query(copyTo(sql)) as AsyncIterable<Buffer>)
    reader.push(chunk, (data, start, end) =>
      messages.push(data.toString('utf8', start, end)),
    )
  expect(reader.complete).toBe(true)
  return messages
}

describe('the COPY snapshot', () => {
  it('writes every row as insertMessage writes the row read as text, for every kind of value', async () => {
    const client = await textClient()
    try {
      const { rows: columns } = await client.query<{ name: string }>(
        `select attname as name from pg_attribute
         where attrelid = 'kinds'::regclass and attnum > 0 order by attnum`,
      )
      const view = {
        relation: ['public', 'kinds'] as [string, string],
        columns: columns.map((c) => c.name),
        primaryKey: ['id', 'k "/x'],
        replica: 'default' as const,
        matches: () => true,
      }
      const list = view.columns.map((c) => `"${c.replace(/"/g, '""')}"`)
      const { rows } = await client.query<Record<string, string | null>>(
        `select ${list.join(', ')} from kinds order by id`,
      )
      const expected = rows.map((row) => snapshotRecord(view, row, 0).json)
      const copied = await copyMessages(
        client,
        snapshotCopySql(view, { schema: 'public', name: 'kinds' }, null),
      )
      expect(copied.sort()).toEqual([...expected].sort())
      expect(copied).toHaveLength(4)
      // What the engine reads (text output), not what a cast gives: `t` and `ab   `.
      expect(JSON.parse(expected[0] as string)).toMatchObject({
        value: { b: 't', c: 'ab   ' },
      })
    } finally {
      await client.end()
    }
  })

  it('writes params into the statement as literals, quotes and backslashes kept', async () => {
    const tricky = `it's a \\ "test"`
    const stream = new ShapeStream<{ id: number; title: string }>({
      url: engine.shapeUrl,
      params: {
        table: 'notes',
        where: 'title = $1 OR title = $2',
        params: [tricky, `it's`],
      },
    })
    const shape = new Shape(stream)
    const rows = await shape.rows
    stream.unsubscribeAll()
    expect(rows.map((r) => r.title).sort()).toEqual([tricky, `it's`].sort())
  })

  it('stops the COPY of a shape deleted while it is read, and reads the next one whole', async () => {
    const first = await fetch(`${engine.shapeUrl}?table=big&offset=-1`)
    const handle = first.headers.get('electric-handle') ?? ''
    await first.arrayBuffer()
    const reading = engine.database.byHandle(handle)
    expect(reading?.ready).toBe(false)
    const deleted = await fetch(`${engine.shapeUrl}?handle=${handle}`, {
      method: 'DELETE',
    })
    expect(deleted.status).toBe(202)
    // The COPY ended with its connection, well before it could have read the whole table.
    await waitUntil(
      'the COPY to end',
      async () => {
        const { rows } = await source.db.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity
         where query like 'COPY (SELECT%' and pid <> pg_backend_pid()`,
        )
        return rows[0]?.n === 0
      },
      10_000,
    )
    // Its rows stopped at the deletion: far from the table's end.
    expect(reading?.log.appendedOffset.op).toBeLessThan(100_000)
    const stream = new ShapeStream<{ id: number }>({
      url: engine.shapeUrl,
      params: { table: 'big' },
    })
    const shape = new Shape(stream)
    const rows = await shape.rows
    stream.unsubscribeAll()
    expect(rows).toHaveLength(200_000)
    expect(new Set(rows.map((r) => r.id)).size).toBe(200_000)
  }, 60_000)

  it("reads a snapshot longer than the database's statement_timeout whole", async () => {
    // What a role or database may set for the app's own queries: the whole COPY is one
    // statement, and must not be cut by it.
    await source.db.query(
      `alter database "${new URL(source.url).pathname.slice(1)}" set statement_timeout = '50ms'`,
    )
    const timed = await startTestEngine(source.url)
    try {
      const stream = new ShapeStream<{ id: number }>({
        url: timed.shapeUrl,
        params: { table: 'big', where: 'id > 0' },
      })
      const shape = new Shape(stream)
      const rows = await shape.rows
      stream.unsubscribeAll()
      expect(rows).toHaveLength(200_000)
    } finally {
      await timed.destroy()
      await source.db.query(
        `alter database "${new URL(source.url).pathname.slice(1)}" reset statement_timeout`,
      )
    }
  }, 60_000)
})
