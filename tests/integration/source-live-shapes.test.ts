// A source's live shapes: the shapes its engine holds are rows of `source_shapes`,
// written by the server that runs it (created at once, counters at a bounded rate, cleared when
// it is removed, replaced when a server starts it again), synced to its team's members by the
// dashboard shape /v1/source-shapes, and one can be deleted (rotated) through
// DELETE /api/v1/sources/:id/shapes/:handle, which answers the txid of its row's delete.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Browser, signInLocally } from '../support/app.ts'
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

// Short, so the bounded writes show within a test; the rate is what is checked.
const INTERVAL_MS = 300

const control = useControlPlaneDatabase()
let server: SourceServer
let owner: Browser
let stranger: Browser
let teamId: string
let database: SourceDatabase
let source: { id: string; secret: string }

beforeAll(async () => {
  server = await startSourceServer(
    control.db,
    { liveShapesIntervalMs: INTERVAL_MS },
    { controlPlaneUrl: control.url },
  )
  const signedIn = await signInLocally(server.app)
  owner = signedIn.browser
  teamId = await personalTeam(control.db, signedIn.user.id)
  stranger = (await signInLocally(server.app, 'Eve')).browser
  database = await createSourceDatabase()
  await database.db.query(`
    create table items (id int primary key, title text not null, n int);
    insert into items select g, 'item ' || g, g from generate_series(1, 5) g`)
  source = await activeSource()
}, 60_000)

afterAll(async () => {
  await server?.stop()
  await database?.drop()
})

async function activeSource() {
  const added = await insertSource(control.db, server.key, teamId, database.url)
  await vi.waitFor(
    async () =>
      expect((await sourceRow(control.db, added.id))?.state).toBe('active'),
    { timeout: 20_000, interval: 50 },
  )
  return added
}

type StoredShape = {
  source_id: string
  handle: string
  table_schema: string
  table_name: string
  where_clause: string | null
  params: string[]
  row_count: string
  log_bytes: string
  created_at: Date
  last_read_at: Date | null
}

async function storedShapes(sourceId = source.id): Promise<StoredShape[]> {
  const { rows } = await control.db.query<StoredShape>(
    'select * from source_shapes where source_id = $1 order by created_at',
    [sourceId],
  )
  return rows
}

const storedShape = async (handle: string) =>
  (await storedShapes()).find((row) => row.handle === handle)

const shapeUrl = (query: string, of = source) =>
  `${server.origin}/v1/shape?source_id=${of.id}&source_secret=${encodeURIComponent(of.secret)}&${query}`

/** Reads a shape as an app would, through to up-to-date: its handle and offset. */
async function readShape(query: string, of = source) {
  let url = shapeUrl(`${query}&offset=-1`, of)
  while (true) {
    const response = await fetch(url)
    expect(response.status).toBe(200)
    await response.arrayBuffer()
    const handle = response.headers.get('electric-handle') ?? ''
    const offset = response.headers.get('electric-offset') ?? ''
    if (response.headers.has('electric-up-to-date')) return { handle, offset }
    url = shapeUrl(`${query}&handle=${handle}&offset=${offset}`, of)
  }
}

const deleteShape = (browser: Browser, handle: string, sourceId = source.id) =>
  browser.request(`/api/v1/sources/${sourceId}/shapes/${handle}`, {
    method: 'DELETE',
    headers: { origin: browser.origin },
  })

describe('live shapes in the control plane', () => {
  it('a shape created through /v1/shape is listed with its facts, and never a secret', async () => {
    const before = Date.now()
    const { handle } = await readShape('table=items&where=n <= $1&params[1]=3')
    await vi.waitFor(
      async () =>
        expect(await storedShape(handle)).toEqual({
          source_id: source.id,
          handle,
          table_schema: 'public',
          table_name: 'items',
          where_clause: 'n <= $1',
          params: ['3'],
          row_count: '3',
          log_bytes: expect.stringMatching(/^[1-9]\d*$/),
          created_at: expect.any(Date),
          last_read_at: expect.any(Date),
          clients: 0,
          requests: expect.stringMatching(/^[1-9]\d*$/),
          bytes_sent: expect.stringMatching(/^[1-9]\d*$/),
          changes_written: '0',
          requests_per_minute: expect.any(Number),
          bytes_per_minute: expect.any(Number),
          changes_per_minute: 0,
          stalled_requests: 0,
          log_entries: '4',
          snapshot_ms: expect.any(Number),
          last_rotation_at: null,
          last_rotation_cause: null,
        }),
      { timeout: 10_000, interval: 50 },
    )
    const row = await storedShape(handle)
    expect(row?.created_at.getTime()).toBeGreaterThanOrEqual(before - 1)
    const text = JSON.stringify(row)
    expect(text).not.toContain(source.secret)
    expect(text).not.toContain(database.password)

    // Its counters follow the data within an interval.
    await database.db.query(`insert into items values (20, 'twenty', 0)`)
    await vi.waitFor(
      async () => expect((await storedShape(handle))?.row_count).toBe('4'),
      { timeout: 10_000, interval: 50 },
    )
    expect(Number((await storedShape(handle))?.log_bytes)).toBeGreaterThan(
      Number(row?.log_bytes),
    )
  }, 60_000)

  it('reading a shape updates its last read, at most once per interval', async () => {
    const { handle, offset } = await readShape(
      'table=items&where=id = $1&params[1]=2',
    )
    await vi.waitFor(
      async () => expect((await storedShape(handle))?.row_count).toBe('1'),
      { timeout: 10_000, interval: 50 },
    )
    // Each update of the row from here on, counted by the database itself.
    await control.db.query(`
      create table if not exists shape_row_updates (handle text, at timestamptz);
      create or replace function count_shape_update() returns trigger language plpgsql as $$
      begin
        insert into shape_row_updates values (new.handle, clock_timestamp());
        return new;
      end $$;
      create or replace trigger count_shape_updates after update on source_shapes
        for each row execute function count_shape_update();`)
    const started = Date.now()
    let lastAsked = 0
    for (let i = 0; i < 40; i++) {
      lastAsked = Date.now()
      const response = await fetch(
        shapeUrl(
          `table=items&where=id = $1&params[1]=2&handle=${handle}&offset=${offset}`,
        ),
      )
      expect(response.status).toBe(200)
      await response.arrayBuffer()
    }
    // The last read shows within an interval or so (the ms stored may round down by one).
    await vi.waitFor(
      async () =>
        expect(
          (await storedShape(handle))?.last_read_at?.getTime(),
        ).toBeGreaterThanOrEqual(lastAsked - 1),
      { timeout: 10_000, interval: 50 },
    )
    const elapsed = Date.now() - started
    const { rows } = await control.db.query<{ n: number }>(
      'select count(*)::int as n from shape_row_updates where handle = $1',
      [handle],
    )
    // 40 reads, yet at most one write per interval that passed (and the one under way).
    expect(rows[0]?.n).toBeGreaterThanOrEqual(1)
    expect(rows[0]?.n).toBeLessThanOrEqual(Math.ceil(elapsed / INTERVAL_MS) + 1)
  }, 60_000)
})

describe('DELETE /api/v1/sources/:id/shapes/:handle', () => {
  it('rotates the shape: its row goes with the answer, its old handle answers 409', async () => {
    const query = 'table=items&where=n >= $1&params[1]=4'
    const { handle, offset } = await readShape(query)
    await vi.waitFor(
      async () => expect(await storedShape(handle)).toBeDefined(),
      {
        timeout: 10_000,
        interval: 50,
      },
    )

    const response = await deleteShape(owner, handle)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      id: source.id,
      handle,
      txid: expect.any(Number),
    })
    expect(await storedShape(handle)).toBeUndefined()

    const old = await fetch(
      shapeUrl(`${query}&handle=${handle}&offset=${offset}`),
    )
    expect(old.status).toBe(409)
    const next = old.headers.get('electric-handle')
    expect(next).toBeTruthy()
    expect(next).not.toBe(handle)
    // The client's refetch is a new shape, listed in turn.
    await readShape(query)
    await vi.waitFor(
      async () => expect(await storedShape(next ?? '')).toBeDefined(),
      {
        timeout: 10_000,
        interval: 50,
      },
    )

    // Gone: deleting it again is a 404.
    const again = await deleteShape(owner, handle)
    expect(again.status).toBe(404)
    expect(await again.json()).toEqual({ message: 'Shape not found' })
  }, 60_000)

  it("is a 404 for another team's member, and for a handle nobody knows", async () => {
    const { handle } = await readShape('table=items&where=n = $1&params[1]=5')
    await vi.waitFor(
      async () => expect(await storedShape(handle)).toBeDefined(),
      {
        timeout: 10_000,
        interval: 50,
      },
    )
    const refused = await deleteShape(stranger, handle)
    expect(refused.status).toBe(404)
    expect(await refused.json()).toEqual({ message: 'Source not found' })
    // Untouched: still listed, still read with its handle.
    expect(await storedShape(handle)).toBeDefined()
    expect(server.runtime.database(source.id)?.byHandle(handle)).toBeDefined()

    for (const unknown of ['1234-5678abcdef', 'not%20a%20handle']) {
      const response = await deleteShape(owner, unknown)
      expect(response.status).toBe(404)
      expect(await response.json()).toEqual({ message: 'Shape not found' })
    }
    // Not signed in: 401, as every /api/v1 path.
    const anonymous = await deleteShape(new Browser(server.app), handle)
    expect(anonymous.status).toBe(401)
  }, 60_000)
})

type Message = {
  value?: Record<string, unknown>
  headers: { operation?: string; txids?: number[]; control?: string }
}

describe('the dashboard shape /v1/source-shapes', () => {
  it("serves a source's live shapes to its team's members only, and their deletes with the write's txid", async () => {
    const { handle } = await readShape('table=items&where=id = $1&params[1]=3')
    // Its row is written as the shape is made (never read), then again with its read.
    await vi.waitFor(
      async () =>
        expect((await storedShape(handle))?.last_read_at).toBeTruthy(),
      {
        timeout: 10_000,
        interval: 50,
      },
    )
    const path = `/v1/source-shapes?source_id=${source.id}`
    const first = await owner.get(`${path}&offset=-1`)
    expect(first.status).toBe(200)
    expect(first.headers.get('cache-control')).toBe('private, no-store')
    const rows = ((await first.json()) as Message[])
      .map((m) => m.value)
      .filter(Boolean)
    expect(rows).toContainEqual({
      source_id: source.id,
      handle,
      table_schema: 'public',
      table_name: 'items',
      where_clause: 'id = $1',
      // The protocol's text: the client parses the jsonb by the shape's schema.
      params: '["3"]',
      row_count: '1',
      log_bytes: expect.any(String),
      created_at: expect.any(String),
      clients: expect.any(String),
      requests: expect.any(String),
      bytes_sent: expect.any(String),
      changes_written: expect.any(String),
      requests_per_minute: expect.any(String),
      bytes_per_minute: expect.any(String),
      changes_per_minute: expect.any(String),
      stalled_requests: '0',
      log_entries: expect.any(String),
      snapshot_ms: expect.any(String),
      last_rotation_at: null,
      last_rotation_cause: null,
      last_read_at: expect.any(String),
    })

    expect((await stranger.get(`${path}&offset=-1`)).status).toBe(404)
    expect(
      (await new Browser(server.app).get(`${path}&offset=-1`)).status,
    ).toBe(401)

    // Live: the delete arrives carrying the txid the route answered. The figures sampler
    // updates these rows too, so an answer may hold its updates first: follow the stream
    // (as a client does) until the delete comes.
    let at = {
      handle: first.headers.get('electric-handle'),
      offset: first.headers.get('electric-offset'),
    }
    const liveAnswer = async () => {
      const answer = await owner.get(
        `${path}&handle=${at.handle}&offset=${at.offset}&live=true`,
      )
      expect(answer.status).toBe(200)
      at = {
        handle: answer.headers.get('electric-handle'),
        offset: answer.headers.get('electric-offset'),
      }
      return (await answer.json()) as Message[]
    }
    const live = liveAnswer()
    const deleted = await deleteShape(owner, handle)
    const { txid } = (await deleted.json()) as { txid: number }
    const received = await live
    const isDelete = (m: Message) =>
      m.headers.operation === 'delete' && m.headers.txids?.[0] === txid
    for (let answers = 1; !received.some(isDelete) && answers < 20; answers++)
      received.push(...(await liveAnswer()))
    expect(received).toContainEqual(
      expect.objectContaining({
        headers: expect.objectContaining({
          operation: 'delete',
          txids: [txid],
        }),
      }),
    )
  }, 60_000)
})

describe('a server starting a source again', () => {
  it('replaces the rows an earlier run left with the shapes its engine holds, keeping when they were read', async () => {
    const { handle } = await readShape(
      'table=items&where=title = $1&params[1]=item 1',
    )
    // Written first as the shape is made (no rows, never read), then with its read: the
    // second is what a restart must keep.
    await vi.waitFor(
      async () =>
        expect(await storedShape(handle)).toMatchObject({
          row_count: '1',
          last_read_at: expect.any(Date),
        }),
      { timeout: 10_000, interval: 50 },
    )
    // What a restart keeps: the definition, counts and last read (traffic counts start over).
    const kept = async () => {
      const row = await storedShape(handle)
      return (
        row && {
          ...row,
          requests: '0',
          bytes_sent: '0',
          requests_per_minute: 0,
          bytes_per_minute: 0,
          snapshot_ms: 0,
        }
      )
    }
    const before = await kept()
    // A shape the engine no longer holds (a crash between its rotation and the row's delete).
    await control.db.query(
      `insert into source_shapes (source_id, handle, table_schema, table_name, row_count,
                                  log_bytes, created_at)
       values ($1, 'stale-1', 'public', 'items', 1, 10, now())`,
      [source.id],
    )

    // A stopping server leaves its rows: the shapes stay on disk for its next start.
    const { dataDir, key } = server
    await server.stop({ keepDataDir: true })
    expect(await kept()).toEqual(before)
    server = await startSourceServer(
      control.db,
      { liveShapesIntervalMs: INTERVAL_MS },
      { controlPlaneUrl: control.url, dataDir, key },
    )
    await vi.waitFor(
      async () =>
        expect((await storedShapes()).map((row) => row.handle)).not.toContain(
          'stale-1',
        ),
      { timeout: 20_000, interval: 50 },
    )
    await vi.waitFor(async () => expect(await kept()).toEqual(before), {
      timeout: 20_000,
      interval: 50,
    })
  }, 60_000)
})
