// The Shape Inspector's read, GET /api/v1/sources/:id/shapes/:handle/messages: the messages a
// client reading a live shape from an offset receives. Checked against the official Electric
// client reading the same shape through the apps' /v1/shape, from the start and from a later
// offset after inserts, updates and deletes, and for a shape with a subquery (its moves);
// paged by `limit`, refused for another team, an unknown handle, a bad offset or limit; and its
// timeline (/timeline): each point read from its offset starts there.
import { ShapeStream, type Message, type Offset } from '@electric-sql/client'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
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

type Page = {
  messages: Record<string, unknown>[]
  next_offset: string | null
  offset: string
  answers: { offset: string; next_offset: string; bytes: number }[]
}

const control = useControlPlaneDatabase()
let server: SourceServer
let owner: Browser
let stranger: Browser
let database: SourceDatabase
let source: { id: string; secret: string }

beforeAll(async () => {
  server = await startSourceServer(control.db)
  const signedIn = await signInLocally(server.app)
  owner = signedIn.browser
  const teamId = await personalTeam(control.db, signedIn.user.id)
  stranger = (await signInLocally(server.app, 'Eve')).browser
  database = await createSourceDatabase()
  await database.db.query(`
    create table items (id int primary key, title text not null, n int);
    insert into items select g, 'item ' || g, g from generate_series(1, 5) g;
    create table projects (id int primary key, archived bool not null default false);
    create table tasks (id int primary key, project_id int not null, title text not null);
    insert into projects values (1, false), (2, false);
    insert into tasks select g, 1 + g % 2, 'task ' || g from generate_series(1, 4) g`)
  source = await insertSource(control.db, server.key, teamId, database.url)
  await vi.waitFor(
    async () =>
      expect((await sourceRow(control.db, source.id))?.state).toBe('active'),
    { timeout: 20_000, interval: 50 },
  )
}, 60_000)

afterAll(async () => {
  await server?.stop()
  await database?.drop()
})

/**
 * What the official client receives reading `params` from `from` until its first up-to-date:
 * the messages, the shape's handle and the offset it then holds.
 */
async function clientRead(
  params: Record<string, string>,
  from: { offset: Offset; handle?: string } = { offset: '-1' },
) {
  const aborter = new AbortController()
  const stream = new ShapeStream({
    url: `${server.origin}/v1/shape`,
    params: { ...params, source_id: source.id, source_secret: source.secret },
    offset: from.offset,
    handle: from.handle,
    parser: WIRE_PARSER,
    signal: aborter.signal,
  })
  const messages: Message[] = []
  await new Promise<void>((resolve, reject) => {
    stream.subscribe(
      (batch) => {
        messages.push(...batch)
        if (batch.some((m) => m.headers.control === 'up-to-date')) resolve()
      },
      (error) => reject(error),
    )
  })
  aborter.abort()
  return {
    messages,
    handle: stream.shapeHandle ?? '',
    offset: stream.lastOffset,
  }
}

const messagesPath = (handle: string, query: string, sourceId = source.id) =>
  `/api/v1/sources/${sourceId}/shapes/${handle}/messages?${query}`

async function page(handle: string, offset: string, limit?: number) {
  const query = new URLSearchParams({ offset })
  if (limit !== undefined) query.set('limit', String(limit))
  const response = await owner.request(messagesPath(handle, `${query}`))
  expect(response.status).toBe(200)
  return (await response.json()) as Page
}

/** Every page from `offset` to the one that ends with the up-to-date. */
async function allPages(handle: string, offset: string, limit?: number) {
  const pages: Page[] = []
  let next: string | null = offset
  while (next !== null) {
    const read = await page(handle, next, limit)
    pages.push(read)
    next = read.next_offset
  }
  return pages
}

const joined = (pages: Page[]) => pages.flatMap((p) => p.messages)

const ITEMS = { table: 'items' }

/** Values as they are on the wire: the client's default parser makes numbers of some types. */
const asSent = (value: string) => value
const WIRE_PARSER = Object.fromEntries(
  ['int2', 'int4', 'int8', 'bool', 'float4', 'float8', 'json', 'jsonb'].map(
    (type) => [type, asSent],
  ),
)

describe('the Shape Inspector’s messages', () => {
  it('equal what the official client received from the start and from a later offset', async () => {
    const first = await clientRead(ITEMS)
    expect(first.messages.filter((m) => 'key' in m)).toHaveLength(5)
    const fromStart = await allPages(first.handle, '-1')
    expect(joined(fromStart)).toEqual(first.messages)
    // Each answer's size is the body a client gets.
    expect(fromStart[0]?.answers[0]).toEqual({
      offset: '-1',
      next_offset: expect.stringMatching(/^0_\d+$/),
      bytes: expect.any(Number),
      messages: 6,
    })
    expect(fromStart.at(-1)?.offset).toBe(first.offset)

    await database.db.query(`insert into items values (6, 'six', 6)`)
    await database.db.query(`update items set title = 'two!' where id = 2`)
    await database.db.query(`
      begin;
      delete from items where id = 3;
      update items set n = 40 where id = 4;
      commit`)
    // Once the shape holds all three transactions, the client reads them from where it was.
    await vi.waitFor(
      async () =>
        expect(
          joined(await allPages(first.handle, first.offset)).filter(
            (m) => 'key' in m,
          ),
        ).toHaveLength(4),
      { timeout: 10_000, interval: 50 },
    )
    const later = await clientRead(ITEMS, {
      offset: first.offset,
      handle: first.handle,
    })
    const operations = later.messages.flatMap((m) =>
      'key' in m ? [m.headers.operation] : [],
    )
    expect(operations).toEqual(['insert', 'update', 'delete', 'update'])
    expect(joined(await allPages(first.handle, first.offset))).toEqual(
      later.messages,
    )
    // The whole log, from the start, is the client's two reads with one up-to-date between.
    const whole = joined(await allPages(first.handle, '-1'))
    expect(whole).toEqual([...first.messages.slice(0, -1), ...later.messages])
  }, 60_000)

  it('pages by limit: no page holds more, and the pages join up to the whole', async () => {
    const { handle } = await clientRead(ITEMS)
    const whole = joined(await allPages(handle, '-1'))
    const pages = await allPages(handle, '-1', 2)
    expect(pages.length).toBe(Math.ceil(whole.length / 2))
    for (const p of pages) expect(p.messages.length).toBeLessThanOrEqual(2)
    expect(joined(pages)).toEqual(whole)
    expect(pages.at(-1)?.next_offset).toBeNull()
  }, 30_000)

  it('shows a subquery shape’s moves as the client receives them', async () => {
    const params = {
      table: 'tasks',
      where: 'project_id IN (SELECT id FROM projects WHERE archived = false)',
    }
    const first = await clientRead(params)
    expect(joined(await allPages(first.handle, '-1'))).toEqual(first.messages)
    await database.db.query(`update projects set archived = true where id = 1`)
    await vi.waitFor(
      async () =>
        expect(
          joined(await allPages(first.handle, first.offset)).some(
            (m) => (m.headers as Record<string, unknown>).event === 'move-out',
          ),
        ).toBe(true),
      { timeout: 10_000, interval: 50 },
    )
    const later = await clientRead(params, {
      offset: first.offset,
      handle: first.handle,
    })
    expect(joined(await allPages(first.handle, first.offset))).toEqual(
      later.messages,
    )
  }, 60_000)

  it('is another team’s a 404 like a missing source, and an unknown handle’s a 404', async () => {
    const { handle } = await clientRead(ITEMS)
    const foreign = await stranger.request(messagesPath(handle, 'offset=-1'))
    expect(foreign.status).toBe(404)
    expect(await foreign.json()).toEqual({ message: 'Source not found' })
    const unknown = await owner.request(messagesPath('nope-123', 'offset=-1'))
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toEqual({ message: 'Shape not found' })
  }, 30_000)

  it('refuses a malformed offset, one past the log, and a limit out of bounds with a 400', async () => {
    const { handle } = await clientRead(ITEMS)
    for (const [query, param] of [
      ['offset=abc', 'offset'],
      ['offset=1_x', 'offset'],
      ['offset=999999999999_5', 'offset'],
      ['offset=-1&limit=0', 'limit'],
      ['offset=-1&limit=1001', 'limit'],
      ['offset=-1&limit=ten', 'limit'],
    ]) {
      const response = await owner.request(messagesPath(handle, query ?? ''))
      expect(response.status, query).toBe(400)
      const body = (await response.json()) as { errors: object }
      expect(Object.keys(body.errors), query).toEqual([param])
    }
  }, 30_000)

  it('has a timeline of the start, the snapshot’s end and each transaction, each read from its offset', async () => {
    await database.db.query(`
      create table notes (id int primary key, body text not null);
      insert into notes select g, 'note ' || g from generate_series(1, 3) g`)
    const { handle } = await clientRead({ table: 'notes' })
    await database.db.query(`insert into notes values (4, 'four')`)
    await database.db.query(`update notes set body = 'one!' where id = 1`)
    await database.db.query(`
      begin;
      delete from notes where id = 2;
      update notes set body = 'three!' where id = 3;
      commit`)
    type Timeline = {
      points: Array<Record<string, unknown> & { kind: string; offset: string }>
      truncated: boolean
    }
    const timelinePath = `/api/v1/sources/${source.id}/shapes/${handle}/timeline`
    let timeline: Timeline = { points: [], truncated: false }
    await vi.waitFor(
      async () => {
        const response = await owner.request(timelinePath)
        expect(response.status).toBe(200)
        timeline = (await response.json()) as Timeline
        expect(
          timeline.points.filter((p) => p.kind === 'transaction'),
        ).toHaveLength(3)
      },
      { timeout: 10_000, interval: 50 },
    )
    expect(timeline.truncated).toBe(false)
    expect(timeline.points.slice(0, 2)).toEqual([
      { kind: 'start', offset: '-1', rotation: null },
      {
        kind: 'snapshot_end',
        offset: expect.stringMatching(/^0_\d+$/),
        rows: 3,
      },
    ])
    const transactions = timeline.points.slice(2)
    expect(transactions.map((p) => p.messages)).toEqual([1, 1, 2])
    // From each transaction's offset a client receives it first, then those after it.
    const changes = (pages: Page[]) =>
      joined(pages).flatMap((m) => {
        const headers = m.headers as { operation?: string; lsn?: string }
        return headers.operation
          ? [`${headers.operation} ${String(m.key)}`]
          : []
      })
    const all = [
      'insert "public"."notes"/"4"',
      'update "public"."notes"/"1"',
      'delete "public"."notes"/"2"',
      'update "public"."notes"/"3"',
    ]
    expect(
      changes(await allPages(handle, timeline.points[1]?.offset ?? '')),
    ).toEqual(all)
    for (const [i, point] of transactions.entries()) {
      const read = joined(await allPages(handle, point.offset))
      expect((read[0]?.headers as { lsn?: string }).lsn).toBe(point.lsn)
      expect(changes(await allPages(handle, point.offset))).toEqual(
        all.slice([0, 1, 2][i]),
      )
    }
    const foreign = await stranger.request(timelinePath)
    expect(foreign.status).toBe(404)
  }, 60_000)
})
