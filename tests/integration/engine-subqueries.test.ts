// Shapes with subqueries (`project_id IN (SELECT id FROM projects WHERE …)`) against a real
// Postgres: the messages on the wire as Electric sends them (tags, active conditions, move-out
// and move-in events, a move-in's rows and snapshot end), and TanStack DB's electric
// collection, the reference consumer of moves, staying equal to the same query in Postgres.
import { createCollection } from '@tanstack/db'
import { electricCollectionOptions } from '@tanstack/electric-db-collection'
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'
import { MovingRows } from '../../src/app/lib/moving-rows.ts'

type Message = {
  key?: string
  value?: Record<string, string | null>
  headers: Record<string, unknown>
}

let source: TestDatabase
let engine: TestEngine
const id = `test_${randomBytes(4).toString('hex')}`
const cleanups: Array<() => void> = []

const WHERE =
  'project_id IN (SELECT id FROM projects WHERE team_id = $1 AND archived = false)'

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(`
    create table projects (id int8 primary key, team_id int8 not null, archived bool not null default false);
    create table tasks (id int8 primary key, project_id int8, title text not null);
    create table members (team_id int8 not null, user_id int8 not null, primary key (team_id, user_id));
    insert into members values (1, 10), (2, 20);
    insert into projects values (1, 1, false), (2, 1, false), (3, 2, false), (4, 1, true);
    insert into tasks select i, 1 + i % 4, 'task ' || i from generate_series(1, 20) i;`)
  engine = await startTestEngine(source.url, { id })
}, 60_000)

afterAll(async () => {
  for (const cleanup of cleanups) cleanup()
  await engine?.destroy()
  await source?.drop()
})

const shapeUrl = (params: Record<string, string>) => {
  const url = new URL(engine.shapeUrl)
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
  return url.toString()
}

/** Reads from `at` until up to date: the messages, and where it ended. */
async function read(
  params: Record<string, string>,
  at: { handle?: string; offset: string },
) {
  const messages: Message[] = []
  let position = at
  for (;;) {
    const response = await fetch(shapeUrl({ ...params, ...position }))
    expect(response.status).toBe(200)
    messages.push(...((await response.json()) as Message[]))
    position = {
      handle: response.headers.get('electric-handle') ?? '',
      offset: response.headers.get('electric-offset') ?? '',
    }
    if (response.headers.has('electric-up-to-date'))
      return { messages, position }
  }
}

/** Reads live from `at` until the messages include one `until` accepts. */
async function readUntil(
  params: Record<string, string>,
  at: { handle?: string; offset: string },
  until: (m: Message) => boolean,
) {
  const messages: Message[] = []
  let position = at
  while (!messages.some(until)) {
    const response = await fetch(
      shapeUrl({ ...params, ...position, live: 'true' }),
    )
    expect(response.status).toBe(200)
    messages.push(...((await response.json()) as Message[]))
    position = {
      handle: response.headers.get('electric-handle') ?? '',
      offset: response.headers.get('electric-offset') ?? '',
    }
  }
  return { messages, position }
}

const rows = (messages: Message[]) => messages.filter((m) => m.key)

describe('subquery shapes on the wire', () => {
  const params = {
    table: 'tasks',
    where: WHERE,
    'params[1]': '1',
  }

  it('tags every row, moves rows out with an event and in with their rows', async () => {
    const first = await read(params, { offset: '-1' })
    const initial = rows(first.messages)
    // Team 1's live projects are 1 and 2: the tasks whose 1 + i % 4 is one of them.
    expect(
      initial
        .map((m) => Number(m.key?.split('/')[1]?.replace(/"/g, '')))
        .sort((a, b) => a - b),
    ).toEqual([1, 4, 5, 8, 9, 12, 13, 16, 17, 20])
    for (const m of initial) {
      expect(m.headers.tags).toEqual([expect.stringMatching(/^[0-9a-f]{32}$/)])
      expect(m.headers.active_conditions).toEqual([true])
    }
    const tagOf = (id: string) =>
      (
        initial.find((m) => m.value?.project_id === id)?.headers
          .tags as string[]
      )[0]

    // Project 1 archived: one move-out event naming its tag, no deletes.
    await source.db.query('update projects set archived = true where id = 1')
    const out = await readUntil(
      params,
      first.position,
      (m) => 'event' in m.headers,
    )
    const event = out.messages.find((m) => 'event' in m.headers)
    expect(event?.headers).toMatchObject({
      event: 'move-out',
      patterns: [{ pos: 0, value: tagOf('1') }],
    })
    expect(rows(out.messages)).toEqual([])

    // Project 4 revived: a move-in event, its tasks as inserts, their snapshot's end.
    await source.db.query('update projects set archived = false where id = 4')
    const moved = await readUntil(
      params,
      out.position,
      (m) => m.headers.control === 'snapshot-end',
    )
    const kinds = moved.messages
      .filter((m) => m.headers.control !== 'up-to-date')
      .map((m) =>
        m.key
          ? `insert:${m.value?.id}`
          : String(m.headers.event ?? m.headers.control),
      )
    expect(kinds).toEqual([
      'move-in',
      'insert:3',
      'insert:7',
      'insert:11',
      'insert:15',
      'insert:19',
      'snapshot-end',
    ])
    for (const m of rows(moved.messages))
      expect(m.headers).toMatchObject({
        operation: 'insert',
        is_move_in: true,
        active_conditions: [true],
      })
  })
})

describe('refusals', () => {
  it('refuses a subquery of a partitioned table, whose changes come by partition', async () => {
    await source.db.query(`
      create table regions (id int8, kind text) partition by list (kind);
      create table regions_a partition of regions for values in ('a');`)
    const answer = await fetch(
      `${engine.shapeUrl}?${new URLSearchParams({ table: 'tasks', offset: '-1', where: 'project_id IN (SELECT id FROM regions)' })}`,
    )
    expect(answer.status).toBe(400)
    expect(await answer.json()).toEqual({
      message: 'Invalid request',
      errors: {
        where: [
          'a subquery of a partitioned table ("public"."regions") is not supported',
        ],
      },
    })
  })
})

describe('a subquery’s table dropped', () => {
  it('ends the shape: its definition is refused from then on', async () => {
    await source.db.query(`
      create table labels (id int8 primary key, task_id int8 not null);
      insert into labels values (1, 1), (2, 5);`)
    const params = {
      table: 'tasks',
      where: 'id IN (SELECT task_id FROM labels)',
    }
    const first = await read(params, { offset: '-1' })
    expect(
      rows(first.messages)
        .map((m) => m.value?.id)
        .sort(),
    ).toEqual(['1', '5'])
    await source.db.query('drop table labels')
    // The shape is gone (its handle no longer served), and its where names a missing table.
    await expect
      .poll(
        async () =>
          (await fetch(shapeUrl({ ...params, ...first.position }))).status,
        { timeout: 10_000 },
      )
      .toBe(400)
    const refused = await fetch(shapeUrl({ ...params, offset: '-1' }))
    expect(JSON.stringify(await refused.json())).toContain('labels')
  }, 20_000)
})

describe('compaction', () => {
  it('is refused for a shape with subqueries, as Electric refuses it', async () => {
    const query = (where: string) =>
      `${engine.shapeUrl}?${new URLSearchParams({ table: 'tasks', where, offset: '-1', experimental_compaction: 'true' })}`
    const refused = await fetch(query(WHERE.replace('$1', '1')))
    expect(refused.status).toBe(400)
    expect(await refused.json()).toEqual({
      message: 'Invalid request',
      errors: {
        experimental_compaction: [
          "can't be enabled for shapes with subqueries",
        ],
      },
    })
    expect((await fetch(query('id > 3'))).status).toBe(200)
  })
})

describe('a move-in when the WAL stands at a new segment', () => {
  it('arrives at once, though the insert position is past a page header replication never reports', async () => {
    await source.db.query(`
      create table crews (id int8 primary key, active bool not null);
      create table jobs (id int8 primary key, crew_id int8 not null);
      insert into crews values (1, false);
      insert into jobs values (1, 1), (2, 1);`)
    const params = {
      table: 'jobs',
      where: 'crew_id IN (SELECT id FROM crews WHERE active)',
    }
    const first = await read(params, { offset: '-1' })
    expect(rows(first.messages)).toEqual([])
    // The switch follows the commit at once, before the engine reads the move-in's rows: the
    // insert position is then the next segment's start plus its header, and nothing writes
    // after it.
    await source.db.query(
      'begin; update crews set active = true where id = 1; commit; select pg_switch_wal();',
    )
    const started = performance.now()
    const moved = await readUntil(
      params,
      first.position,
      (m) => m.headers.control === 'snapshot-end',
    )
    expect(rows(moved.messages).map((m) => m.value?.id)).toEqual(['1', '2'])
    expect(performance.now() - started).toBeLessThan(5_000)
  }, 40_000)
})

describe('with replica=full and columns', () => {
  it('tags rows by a column it does not send, and sends whole rows with their old values', async () => {
    await source.db.query(`
      create table sites (id int8 primary key, live bool not null);
      create table pages (id int8 primary key, site_id int8 not null, title text not null, body text);
      insert into sites values (1, true), (2, false);
      insert into pages values (1, 1, 'a', 'x'), (2, 1, 'b', 'y'), (3, 2, 'c', 'z');`)
    const params = {
      table: 'pages',
      where: 'site_id IN (SELECT id FROM sites WHERE live)',
      replica: 'full',
      columns: 'id,title',
    }
    const first = await read(params, { offset: '-1' })
    expect(rows(first.messages).map((m) => m.value)).toEqual([
      { id: '1', title: 'a' },
      { id: '2', title: 'b' },
    ])
    const tag = (first.messages[0]?.headers.tags as string[])[0]

    await source.db.query("update pages set title = 'A' where id = 1")
    const updated = await readUntil(params, first.position, (m) => !!m.key)
    expect(rows(updated.messages)[0]).toMatchObject({
      value: { id: '1', title: 'A' },
      old_value: { title: 'a' },
      headers: { operation: 'update', tags: [tag], removed_tags: [] },
    })

    // Site 2 goes live, site 1 does not: page 3 moves in, pages 1 and 2 out.
    await source.db.query(
      'begin; update sites set live = true where id = 2; update sites set live = false where id = 1; commit;',
    )
    const moved = await readUntil(
      params,
      updated.position,
      (m) => m.headers.control === 'snapshot-end',
    )
    const held = new MovingRows()
    for (const m of [...first.messages, ...updated.messages, ...moved.messages])
      held.apply(m as never)
    expect([...held.rows.values()]).toEqual([{ id: '3', title: 'c' }])
    expect(
      moved.messages.find((m) => m.headers.event === 'move-out')?.headers,
    ).toMatchObject({ patterns: [{ pos: 0, value: tag }] })
  })
})

describe('subset snapshots of subquery shapes', () => {
  it('tag their rows, and refuse a subquery of their own', async () => {
    const params = new URLSearchParams({
      table: 'tasks',
      where: WHERE,
      'params[1]': '2',
      log: 'changes_only',
      offset: '-1',
    })
    const answer = await fetch(
      `${engine.shapeUrl}?${params}&subset__where=${encodeURIComponent('id < 12')}`,
    )
    expect(answer.status).toBe(200)
    const body = (await answer.json()) as { data: Message[] }
    // Team 2's project is 3: tasks 2, 6 and 10 below 12.
    expect(body.data.map((m) => m.value?.id).sort()).toEqual(['10', '2', '6'])
    for (const m of body.data)
      expect(m.headers).toMatchObject({
        tags: [expect.stringMatching(/^[0-9a-f]{32}$/)],
        active_conditions: [true],
      })
    const refused = await fetch(
      `${engine.shapeUrl}?${params}&subset__where=${encodeURIComponent('id IN (SELECT id FROM projects)')}`,
    )
    expect(refused.status).toBe(400)
    expect(JSON.stringify(await refused.json())).toContain(
      'Subqueries are not allowed in subsets',
    )
  })
})

describe('TanStack DB follows the moves', () => {
  type Task = { id: string; project_id: string | null; title: string }

  it.each([
    ['long-polls', false, 100],
    ['an SSE stream', true, 300],
  ])(
    'keeps a collection filtered through projects equal to the query, over %s',
    async (_mode, liveSse, newId) => {
      const tasks = createCollection(
        electricCollectionOptions<Task>({
          id: `tasks-of-team-2-${newId}`,
          getKey: (t) => t.id,
          shapeOptions: {
            url: engine.shapeUrl,
            params: { table: 'tasks', where: WHERE, params: ['2'] },
            parser: { int8: (v: string) => v },
            liveSse,
          },
        }),
      )
      cleanups.push(() => void tasks.cleanup())
      await tasks.preload()
      const expected = async () =>
        (
          await source.db.query<{ id: string }>(
            `select id::text from tasks where project_id in (select id from projects where team_id = 2 and archived = false) order by tasks.id`,
          )
        ).rows.map((r) => r.id)
      const held = () =>
        tasks.toArray
          .map((t) => String(t.id))
          .sort((a, b) => Number(a) - Number(b))
      await expect.poll(held).toEqual(await expected())
      const steps = [
        'update projects set team_id = 2 where id = 2',
        `update tasks set project_id = 3 where id = ${newId / 100}`,
        `insert into tasks values (${newId}, 2, 'new in 2')`,
        'update projects set archived = true where id = 3',
        'update projects set archived = false where id = 3',
        `delete from tasks where id = ${newId / 100 + 5}`,
        'update projects set team_id = 1 where id = 2',
      ]
      for (const step of steps) {
        await source.db.query(step)
        const want = await expected()
        await expect.poll(held, { timeout: 10_000 }).toEqual(want)
      }
    },
  )

  it('brings a client that comes back at an old offset to the same rows', async () => {
    const params = { table: 'tasks', where: WHERE, 'params[1]': '1' }
    const rows = new MovingRows()
    const apply = (messages: Message[]) => {
      for (const m of messages) rows.apply(m as never)
    }
    const first = await read(params, { offset: '-1' })
    apply(first.messages)
    // Away while rows move out, in, and change.
    await source.db
      .query(`begin; update projects set archived = false where id = 1; commit;
      begin; update projects set team_id = 1 where id = 3; commit;
      begin; update tasks set title = 'renamed' where id = 3; commit;
      begin; update projects set archived = true where id = 4; commit;`)
    const expected = (
      await source.db.query<{ id: string; title: string }>(
        `select id::text, title from tasks where project_id in (select id from projects where team_id = 1 and archived = false) order by tasks.id`,
      )
    ).rows
    await expect
      .poll(
        async () => {
          const caughtUp = await read(params, first.position)
          const copy = new MovingRows()
          for (const m of [...first.messages, ...caughtUp.messages])
            copy.apply(m as never)
          return [...copy.rows.values()]
            .map((r) => ({ id: String(r.id), title: String(r.title) }))
            .sort((a, b) => Number(a.id) - Number(b.id))
        },
        { timeout: 10_000 },
      )
      .toEqual(expected)
  })
})

describe('nested subqueries', () => {
  type Task = { id: string; project_id: string | null; title: string }

  it('move rows when the innermost result changes', async () => {
    const where =
      'project_id IN (SELECT id FROM projects WHERE team_id IN (SELECT team_id FROM members WHERE user_id = $1))'
    const expected = async () =>
      (
        await source.db.query<{ id: string }>(
          `select id::text from tasks where project_id in (select id from projects where team_id in (select team_id from members where user_id = 30)) order by tasks.id`,
        )
      ).rows.map((r) => r.id)
    const tasks = createCollection(
      electricCollectionOptions<Task>({
        id: 'tasks-of-user-30',
        getKey: (t) => t.id,
        shapeOptions: {
          url: engine.shapeUrl,
          params: { table: 'tasks', where, params: ['30'] },
          parser: { int8: (v: string) => v },
        },
      }),
    )
    cleanups.push(() => void tasks.cleanup())
    await tasks.preload()
    const held = () =>
      tasks.toArray
        .map((t) => String(t.id))
        .sort((a, b) => Number(a) - Number(b))
    await expect.poll(held).toEqual(await expected())
    const steps = [
      'insert into members values (1, 30)',
      'insert into members values (2, 30)',
      'update projects set team_id = 2 where id = 4',
      'delete from members where team_id = 1 and user_id = 30',
      "insert into tasks values (200, 3, 'late')",
      'delete from members where user_id = 30',
    ]
    for (const step of steps) {
      await source.db.query(step)
      const want = await expected()
      await expect.poll(held, { timeout: 10_000 }).toEqual(want)
    }
  }, 30_000)
})

describe('across a restart', () => {
  type Task = { id: string; project_id: string | null; title: string }

  it('resumes at the clients’ offsets, moving what changed while it was down', async () => {
    const where = 'project_id IN (SELECT id FROM projects WHERE team_id = $1)'
    const expected = async () =>
      (
        await source.db.query<{ id: string }>(
          `select id::text from tasks where project_id in (select id from projects where team_id = 3) order by tasks.id`,
        )
      ).rows.map((r) => r.id)
    await source.db.query('update projects set team_id = 3 where id in (1, 2)')
    const tasks = createCollection(
      electricCollectionOptions<Task>({
        id: 'tasks-of-team-3',
        getKey: (t) => t.id,
        shapeOptions: {
          url: engine.shapeUrl,
          params: { table: 'tasks', where, params: ['3'] },
          parser: { int8: (v: string) => v },
          // The engine goes away for a moment: retry rather than fail.
          backoffOptions: {
            initialDelay: 20,
            maxDelay: 100,
            multiplier: 1.5,
          },
        },
      }),
    )
    cleanups.push(() => void tasks.cleanup())
    await tasks.preload()
    const held = () =>
      tasks.toArray
        .map((t) => String(t.id))
        .sort((a, b) => Number(a) - Number(b))
    await expect.poll(held).toEqual(await expected())
    const first = await read(
      { table: 'tasks', where, 'params[1]': '3' },
      { offset: '-1' },
    )

    const port = Number(new URL(engine.shapeUrl).port)
    await engine.stop()
    // While it is down: project 1 leaves team 3, project 3 joins it.
    await source.db.query('update projects set team_id = 1 where id = 1')
    await source.db.query('update projects set team_id = 3 where id = 3')
    engine = await startTestEngine(source.url, {
      id,
      dataDir: engine.dataDir,
      port,
    })
    // The same handle goes on from where it was.
    const resumed = await readUntil(
      { table: 'tasks', where, 'params[1]': '3' },
      first.position,
      (m) => m.headers.event === 'move-in',
    )
    expect(
      resumed.messages.map((m) => m.headers.event).filter(Boolean),
    ).toEqual(['move-out', 'move-in'])
    await expect.poll(held, { timeout: 10_000 }).toEqual(await expected())
  }, 30_000)
})
