// What every shape costs, against a known load: N official clients streaming a shape and M
// changes show as N clients, M changes written, and exactly the requests and bytes the clients
// received, in the control plane's rows and GET /api/v1/sources/{id}/shapes; the source's
// points over time come in by the sampler, and the routes answer members only.
import { ShapeStream, type Row } from '@electric-sql/client'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Browser } from '../support/app.ts'
import { signInLocally } from '../support/app.ts'
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

const CLIENTS = 3
const CHANGES = 12
const FIRST_ROWS = 5

const control = useControlPlaneDatabase()
let server: SourceServer
let owner: Browser
let stranger: Browser
let database: SourceDatabase
let source: { id: string; secret: string }
const aborter = new AbortController()

beforeAll(async () => {
  server = await startSourceServer(
    control.db,
    { liveShapesIntervalMs: 200, metricsIntervalMs: 300 },
    { controlPlaneUrl: control.url },
  )
  const signedIn = await signInLocally(server.app)
  owner = signedIn.browser
  const teamId = await personalTeam(control.db, signedIn.user.id)
  stranger = (await signInLocally(server.app, 'Eve')).browser
  database = await createSourceDatabase()
  await database.db.query(`
    create table items (id int primary key, title text not null, n int);
    insert into items select g, 'item ' || g, g from generate_series(1, ${FIRST_ROWS}) g`)
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

type Counted = { requests: number; bytes: number }

/** An official client of the shape, counting the answers and bytes it receives. */
function client(where: string, counted: Counted) {
  const rows = new Map<string, Row>()
  const stream = new ShapeStream({
    url: `${server.origin}/v1/shape`,
    params: {
      table: 'items',
      where,
      source_id: source.id,
      source_secret: source.secret,
    },
    signal: aborter.signal,
    fetchClient: async (input, init) => {
      const response = await fetch(input, init)
      const body = await response.arrayBuffer()
      counted.requests++
      counted.bytes += body.byteLength
      return new Response(response.status === 304 ? null : body, response)
    },
  })
  stream.subscribe((messages) => {
    for (const message of messages)
      if ('key' in message) {
        if (message.headers.operation === 'delete') rows.delete(message.key)
        else rows.set(message.key, message.value)
      }
  })
  return rows
}

const apiGet = (browser: Browser, path: string) =>
  browser.request(`/api/v1/sources/${source.id}${path}`)

type ListedShape = Record<string, unknown> & { handle: string; where: string }

async function listedShape(where: string): Promise<ListedShape | undefined> {
  const response = await apiGet(owner, '/shapes')
  expect(response.status).toBe(200)
  const shapes = (await response.json()) as ListedShape[]
  return shapes.find((shape) => shape.where === where)
}

describe('per-shape figures', () => {
  it('N clients and M changes show as made: clients, writes, requests and bytes', async () => {
    const counted: Counted = { requests: 0, bytes: 0 }
    const where = 'n > 0'
    const clients = Array.from({ length: CLIENTS }, () =>
      client(where, counted),
    )
    await vi.waitFor(
      () =>
        expect(clients.map((rows) => rows.size)).toEqual(
          clients.map(() => FIRST_ROWS),
        ),
      { timeout: 10_000 },
    )
    for (let i = 1; i <= CHANGES; i++)
      await database.db.query(
        `insert into items values ($1::int, 'new ' || $1, $1::int)`,
        [100 + i],
      )
    await vi.waitFor(
      () =>
        expect(clients.map((rows) => rows.size)).toEqual(
          clients.map(() => FIRST_ROWS + CHANGES),
        ),
      { timeout: 10_000 },
    )
    // Settled: every client parked again, and the rows written with what they received.
    await vi.waitFor(
      async () =>
        expect(await listedShape(where)).toMatchObject({
          clients: CLIENTS,
          rows: FIRST_ROWS + CHANGES,
          changes_written: CHANGES,
          // The rows, the snapshot's end, and one record per change.
          log_entries: FIRST_ROWS + 1 + CHANGES,
          requests: counted.requests,
          bytes_sent: counted.bytes,
          stalled_requests: 0,
          last_rotation: null,
        }),
      { timeout: 15_000, interval: 100 },
    )
    const listed = await listedShape(where)
    expect(listed).toMatchObject({
      table: 'public.items',
      requests_per_minute: expect.any(Number),
      bytes_per_minute: expect.any(Number),
      changes_per_minute: expect.any(Number),
    })
    expect(listed?.requests_per_minute).toBeGreaterThan(0)
    expect(listed?.changes_per_minute).toBeGreaterThan(0)

    // One change on two shapes is two writes: the source's writes count both.
    const engineDatabase = server.engine.get(source.id)
    const before = engineDatabase?.writesEmitted ?? 0
    const other = client('n > 100', { requests: 0, bytes: 0 })
    await vi.waitFor(() => expect(other.size).toBe(CHANGES), {
      timeout: 10_000,
    })
    await database.db.query(`insert into items values (500, 'both', 500)`)
    await vi.waitFor(() => expect(other.size).toBe(CHANGES + 1), {
      timeout: 10_000,
    })
    expect(engineDatabase?.writesEmitted).toBe(before + 2)

    // The sampler's points: the clients now, and the changes and writes of the interval.
    await vi.waitFor(
      async () => {
        const response = await apiGet(owner, '/metrics?window=hour')
        expect(response.status).toBe(200)
        const { points } = (await response.json()) as {
          points: Array<Record<string, number>>
        }
        expect(points.at(-1)).toMatchObject({
          at: expect.any(String),
          clients: CLIENTS + 1,
          changes_per_second: expect.any(Number),
          writes_per_minute: expect.any(Number),
        })
        expect(
          points.some((point) => Number(point.writes_per_minute) > 0),
        ).toBe(true)
      },
      { timeout: 15_000, interval: 200 },
    )
  }, 60_000)

  it('answers members only, and a window it knows', async () => {
    for (const path of ['/shapes', '/metrics', '/invalidations']) {
      const refused = await apiGet(stranger, path)
      expect(refused.status).toBe(404)
      expect(await refused.json()).toEqual({ message: 'Source not found' })
    }
    const bad = await apiGet(owner, '/metrics?window=year')
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { message: string }).message).toMatch(
      /^window: /,
    )
    for (const window of ['hour', 'day', 'week']) {
      const response = await apiGet(owner, `/metrics?window=${window}`)
      expect(response.status).toBe(200)
      expect(await response.json()).toMatchObject({
        window,
        points: expect.any(Array),
      })
    }
  })
})
