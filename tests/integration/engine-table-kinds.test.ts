// Table kinds that once failed silently or broke the app's own writes: generated columns and
// partitioned tables (root and leaf shapes side by side).
import { Shape, ShapeStream, type Row } from '@electric-sql/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'

let source: TestDatabase
let engine: TestEngine
const streams: AbortController[] = []
// Every statement the engine reports having run on the database (named in the event log).
const altered: string[] = []

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(`
    create table gen (id int primary key, a int, b int generated always as (a * 2) stored);
    create table events (id int, day date, note text, primary key (id, day))
      partition by range (day);
    create table events_jan partition of events
      for values from ('2026-01-01') to ('2026-02-01');
    create table events_feb partition of events
      for values from ('2026-02-01') to ('2026-03-01');
    create table moved (id int, day date, note text, primary key (id, day))
      partition by range (day);
    create table moved_jan partition of moved
      for values from ('2026-01-01') to ('2026-02-01');
    create table moved_feb (id int, day date, note text, primary key (id, day));
    create table virt (id int primary key, a int, b int generated always as (a * 2) virtual);
    create view items_view as select * from gen;
    create unlogged table scratch (id int primary key);
    create table locked (id int primary key, n int)`)
  engine = await startTestEngine(source.url, {
    events: { onAltered: (statements) => altered.push(...statements) },
  })
}, 60_000)

afterAll(async () => {
  for (const c of streams) c.abort()
  await engine?.destroy()
  await source?.drop()
})

function shapeOf(table: string) {
  const aborter = new AbortController()
  streams.push(aborter)
  return new Shape(
    new ShapeStream({
      url: engine.shapeUrl,
      params: { table },
      signal: aborter.signal,
    }),
  )
}

/** The table's replica identity and whether any publication holds it. */
async function setup(table: string) {
  const { rows } = await source.db.query<{
    identity: string
    published: boolean
  }>(
    `select c.relreplident as identity,
            exists (select 1 from pg_publication_rel r where r.prrelid = c.oid) as published
       from pg_class c where c.oid = $1::regclass`,
    [table],
  )
  return rows[0]
}

const firstAnswer = (table: string) =>
  fetch(`${engine.shapeUrl}?table=${table}&offset=-1`)

// Partitions attached or detached with no change in the WAL are noticed by the engine's
// catalog check, every 2 s.
const CATALOG_CHECK = { timeout: 10_000 }

const byId = (rows: Row[]) =>
  [...rows].sort((a, b) => Number(a.id) - Number(b.id))

describe('a table with a stored generated column', () => {
  it('follows the generated values live, and the app can still update and delete', async () => {
    await source.db.query(`insert into gen (id, a) values (1, 1)`)
    const shape = shapeOf('gen')
    expect(byId(await shape.rows)).toEqual([{ id: 1, a: 1, b: 2 }])
    await source.db.query(`insert into gen (id, a) values (2, 5)`)
    await source.db.query(`update gen set a = 10 where id = 1`)
    await expect
      .poll(() => byId(shape.currentRows))
      .toEqual([
        { id: 1, a: 10, b: 20 },
        { id: 2, a: 5, b: 10 },
      ])
    expect(altered).toContain(
      'ALTER TABLE "public"."gen" REPLICA IDENTITY FULL;',
    )
    await source.db.query(`delete from gen where id = 2`)
    await expect
      .poll(() => byId(shape.currentRows).map((r) => r.id))
      .toEqual([1])
  })
})

describe('a table Postgres cannot replicate as it is', () => {
  it('with a virtual generated column: a 503 that says why, the table left as it was', async () => {
    const answer = await firstAnswer('virt')
    expect(answer.status).toBe(503)
    expect((await answer.json()).message).toMatch(
      /virtual generated columns \(b\).*STORED/,
    )
    expect(await setup('virt')).toEqual({ identity: 'd', published: false })
    await source.db.query(`insert into virt (id, a) values (1, 1)`)
    await source.db.query(`update virt set a = 2`)
    await source.db.query(`delete from virt`)
  })

  it('a view or an unlogged table: a 400 naming the kind, nothing altered', async () => {
    const view = await firstAnswer('items_view')
    expect(view.status).toBe(400)
    expect((await view.json()).errors.table[0]).toMatch(/is a view/)
    const unlogged = await firstAnswer('scratch')
    expect(unlogged.status).toBe(400)
    expect((await unlogged.json()).errors.table[0]).toMatch(
      /is unlogged.*SET LOGGED/,
    )
    expect(await setup('scratch')).toEqual({ identity: 'd', published: false })
    expect(altered.join(' ')).not.toMatch(/virt|scratch|items_view/)
  })
})

describe('a partitioned table', () => {
  it('follows rows on the root and on a leaf, both shapes live at once', async () => {
    await source.db.query(
      `insert into events values (1, '2026-01-05', 'a'), (2, '2026-02-05', 'b')`,
    )
    const leaf = shapeOf('events_jan')
    expect((await leaf.rows).map((r) => r.id)).toEqual([1])
    const root = shapeOf('events')
    expect(byId(await root.rows).map((r) => r.id)).toEqual([1, 2])
    await source.db.query(
      `insert into events values (3, '2026-01-09', 'c'), (4, '2026-02-09', 'd')`,
    )
    await source.db.query(`update events set note = 'A' where id = 1`)
    await source.db.query(`delete from events where id = 2`)
    await expect
      .poll(() => byId(root.currentRows).map((r) => [r.id, r.note]))
      .toEqual([
        [1, 'A'],
        [3, 'c'],
        [4, 'd'],
      ])
    await expect
      .poll(() => byId(leaf.currentRows).map((r) => [r.id, r.note]))
      .toEqual([
        [1, 'A'],
        [3, 'c'],
      ])
  })
})

describe('partitions attached, detached and truncated while clients stream', () => {
  it("start the partitioned table's shape over with the rows it has now", async () => {
    await source.db.query(
      `insert into moved values (1, '2026-01-05', 'a');
       insert into moved_feb values (2, '2026-02-05', 'b')`,
    )
    const root = shapeOf('moved')
    expect((await root.rows).map((r) => r.id)).toEqual([1])
    // Attached: its row joins the partitioned table with no change in the WAL.
    await source.db.query(
      `alter table moved attach partition moved_feb
         for values from ('2026-02-01') to ('2026-03-01')`,
    )
    await expect
      .poll(() => byId(root.currentRows).map((r) => r.id), CATALOG_CHECK)
      .toEqual([1, 2])
    // Its later changes reach the partitioned table's shape; every partition is FULL.
    await source.db.query(`update moved set note = 'B' where id = 2`)
    await expect
      .poll(() => byId(root.currentRows).map((r) => r.note))
      .toEqual(['a', 'B'])
    expect((await setup('moved_feb'))?.identity).toBe('f')
    expect(altered).toContain(
      'ALTER TABLE "public"."moved_feb" REPLICA IDENTITY FULL;',
    )
    // Detached: its row leaves.
    await source.db.query(`alter table moved detach partition moved_feb`)
    await expect
      .poll(() => byId(root.currentRows).map((r) => r.id), CATALOG_CHECK)
      .toEqual([1])
    // A partition truncated empties the partitioned table's shape of its rows.
    await source.db.query(`truncate moved_jan`)
    await expect.poll(() => root.currentRows.length).toBe(0)
    await source.db.query(`insert into moved values (3, '2026-01-07', 'c')`)
    await expect.poll(() => root.currentRows.map((r) => r.id)).toEqual([3])
  })
})

describe('a table the app holds locked', () => {
  it('gets a 503 at once, and Sluice never queues behind the lock (nor the app behind Sluice)', async () => {
    await source.db.query(`insert into locked values (1, 1)`)
    expect((await firstAnswer('locked')).status).toBe(200)
    const holder = await source.db.connect()
    try {
      await holder.query('begin; lock table locked in access exclusive mode')
      // A new shape of the table needs its snapshot: a lock wait Sluice gives up on.
      const answer = await fetch(
        `${engine.shapeUrl}?table=locked&where=n>0&offset=-1`,
      )
      expect(answer.status).toBe(503)
      expect(answer.headers.get('retry-after')).not.toBeNull()
      expect((await answer.json()).message).toMatch(/locked.*is busy/)
      const { rows } = await source.db.query(
        // pg_locks is the whole cluster's: other test files' waits are theirs.
        `select count(*)::int as n from pg_locks
          where not granted and relation = 'locked'::regclass`,
      )
      expect(rows).toEqual([{ n: 0 }])
    } finally {
      await holder.query('rollback')
      holder.release()
    }
  })
})
