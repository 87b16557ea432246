// Apps read a source's shapes at /v1/shape with its id and secret, through the official
// client, across origins. Wrong or missing credentials all look alike; a cache clear sends
// clients a 409 after which they carry on.
import { Shape, ShapeStream } from '@electric-sql/client'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { buildApp, signInLocally, type Browser } from '../support/app.ts'
import { useControlPlaneDatabase } from '../support/database.ts'
import {
  createSourceDatabase,
  eventNames,
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

beforeAll(async () => {
  server = await startSourceServer(control.db)
  const signedIn = await signInLocally(server.app)
  owner = signedIn.browser
  database = await createSourceDatabase()
  await database.db.query(
    'create table items (id int primary key, title text not null)',
  )
  await database.db.query(`insert into items values (1, 'one'), (2, 'two')`)
  source = await insertSource(
    control.db,
    server.key,
    await personalTeam(control.db, signedIn.user.id),
    database.url,
  )
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

const shapeUrl = (params: Record<string, string>) =>
  `${server.origin}/v1/shape?${new URLSearchParams(params)}`

function follow(params: {
  table: string
  source_id: string
  source_secret: string
}) {
  const aborter = new AbortController()
  const stream = new ShapeStream({
    url: `${server.origin}/v1/shape`,
    params,
    signal: aborter.signal,
  })
  return { shape: new Shape(stream), stop: () => aborter.abort() }
}

describe('the apps’ shape endpoint', () => {
  it('syncs a table of the source through the official client, live', async () => {
    const { shape, stop } = follow({
      table: 'items',
      source_id: source.id,
      source_secret: source.secret,
    })
    const rows = await shape.rows
    expect(rows.map((row) => row.title).sort()).toEqual(['one', 'two'])
    await database.db.query(`insert into items values (3, 'three')`)
    await expect
      .poll(() => shape.currentRows.length, { timeout: 10_000 })
      .toBe(3)
    stop()
  }, 30_000)

  it('answers other origins (CORS, preflight) and exposes the protocol headers', async () => {
    const preflight = await fetch(shapeUrl({ table: 'items' }), {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'GET',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    const response = await fetch(
      shapeUrl({
        table: 'items',
        offset: '-1',
        source_id: source.id,
        source_secret: source.secret,
      }),
      { headers: { origin: 'https://app.example.com' } },
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-expose-headers')).toContain(
      'electric-handle',
    )
  })

  it('answers the same 401 for a wrong secret, an unknown id, no secret and no id', async () => {
    const attempts: Record<string, string>[] = [
      { source_id: source.id, source_secret: `${source.secret}x` },
      { source_id: source.id, source_secret: source.secret.slice(0, -1) },
      { source_id: crypto.randomUUID(), source_secret: source.secret },
      { source_id: source.id },
      { source_id: 'not-a-uuid', source_secret: source.secret },
      {},
    ]
    for (const credentials of attempts) {
      const response = await fetch(
        shapeUrl({ table: 'items', offset: '-1', ...credentials }),
      )
      expect(response.status).toBe(401)
      expect(await response.json()).toEqual({ message: 'Unauthorized' })
    }
  })

  it('does not let a signed-in user of another team in with cookies but no secret', async () => {
    const { browser: stranger } = await signInLocally(server.app, 'Mallory')
    const response = await stranger.get(
      `/v1/shape?table=items&offset=-1&source_id=${source.id}`,
    )
    expect(response.status).toBe(401)
    // Nor the owner: the secret is the credential here, not the session.
    const own = await owner.get(
      `/v1/shape?table=items&offset=-1&source_id=${source.id}`,
    )
    expect(own.status).toBe(401)
  })

  it('answers 503 with retry-after while the source is not active', async () => {
    const unreachable = await insertSource(
      control.db,
      server.key,
      await personalTeam(control.db, (await signInLocally(server.app)).user.id),
      'postgres://nobody:secret@127.0.0.1:1/nothing',
    )
    await expect
      .poll(async () => (await sourceRow(control.db, unreachable.id))?.state, {
        timeout: 20_000,
      })
      .toBe('reconnecting')
    const response = await fetch(
      shapeUrl({
        table: 'items',
        offset: '-1',
        source_id: unreachable.id,
        source_secret: unreachable.secret,
      }),
    )
    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBeTruthy()
    const row = await sourceRow(control.db, unreachable.id)
    expect(row?.state_reason).toContain('cannot be reached')
    expect(row?.state_reason).not.toContain('secret')
  }, 30_000)

  it('clears the cache: clients get 409, refetch and still see new rows', async () => {
    const { shape, stop } = follow({
      table: 'items',
      source_id: source.id,
      source_secret: source.secret,
    })
    await shape.rows
    const handle = shape.handle
    const response = await owner.postJson(
      `/api/v1/sources/${source.id}/restart`,
      { clear_cache: true },
    )
    expect(response.status).toBe(200)
    const body = (await response.json()) as { id: string; txid: number }
    expect(body).toEqual({ id: source.id, txid: expect.any(Number) })
    await expect.poll(() => shape.handle, { timeout: 10_000 }).not.toBe(handle)
    const stale = await fetch(
      shapeUrl({
        table: 'items',
        offset: '0_0',
        handle: handle ?? '',
        source_id: source.id,
        source_secret: source.secret,
      }),
    )
    expect(stale.status).toBe(409)
    await database.db.query(`insert into items values (4, 'four')`)
    await expect
      .poll(() => shape.currentRows.some((row) => row.title === 'four'), {
        timeout: 10_000,
      })
      .toBe(true)
    stop()
    const { rows } = await control.db.query<{
      event_details: { shapes: number }
      txid: string
    }>(
      `select event_details, xmin::text as txid from source_event_logs
        where source_id = $1 and event_name = 'cache_cleared'`,
      [source.id],
    )
    expect(rows).toEqual([
      { event_details: { shapes: 1 }, txid: String(body.txid) },
    ])
    expect(await eventNames(control.db, source.id)).toContain('cache_cleared')
  }, 30_000)

  it('restarts the stream without clearing the cache', async () => {
    const response = await owner.postJson(
      `/api/v1/sources/${source.id}/restart`,
      { clear_cache: false },
    )
    expect(response.status).toBe(200)
    expect(await eventNames(control.db, source.id)).toContain(
      'source_restarted',
    )
    const { shape, stop } = follow({
      table: 'items',
      source_id: source.id,
      source_secret: source.secret,
    })
    await shape.rows
    await database.db.query(`insert into items values (5, 'five')`)
    await expect
      .poll(() => shape.currentRows.some((row) => row.title === 'five'), {
        timeout: 10_000,
      })
      .toBe(true)
    stop()
    expect((await sourceRow(control.db, source.id))?.state).toBe('active')
  }, 30_000)

  it('deletes a shape with the source’s credentials, only when ALLOW_SHAPE_DELETION is on', async () => {
    const definition = { table: 'items', where: 'id = 1' }
    const first = await fetch(
      shapeUrl({ ...definition, offset: '-1', ...credentials() }),
    )
    const handle = first.headers.get('electric-handle') ?? ''
    const remove = (
      app: { request: typeof server.app.request },
      creds: object,
    ) =>
      app.request(
        `/v1/shape?${new URLSearchParams({ ...definition, handle, ...creds })}`,
        { method: 'DELETE' },
      )
    // The same deps as the running server, with the switch on: one engine, two configs.
    const open = buildApp(
      control.db,
      { ALLOW_SHAPE_DELETION: 'true' },
      { sources: server.runtime },
    )
    const wrong = { source_id: source.id, source_secret: 'nope' }
    expect((await remove(open, wrong)).status).toBe(401)
    expect((await remove(server.app, credentials())).status).toBe(405)
    const deleted = await remove(open, credentials())
    expect(deleted.status).toBe(202)
    const again = await fetch(
      shapeUrl({ ...definition, offset: '-1', ...credentials() }),
    )
    expect(again.headers.get('electric-handle')).not.toBe(handle)
  })

  it('answers subset snapshots, by GET and by POST with a JSON body', async () => {
    const get = await fetch(
      shapeUrl({
        table: 'items',
        offset: '-1',
        log: 'changes_only',
        subset__where: 'id = $1',
        subset__params: '{"1":"2"}',
        ...credentials(),
      }),
    )
    const post = await fetch(
      shapeUrl({
        table: 'items',
        offset: '-1',
        log: 'changes_only',
        ...credentials(),
      }),
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ where: 'id = $1', params: { '1': '2' } }),
      },
    )
    for (const answer of [get, post]) {
      expect(answer.status).toBe(200)
      expect(answer.headers.get('electric-snapshot')).toBe('true')
      const { data } = (await answer.json()) as {
        data: Array<{ value: { title: string } }>
      }
      expect(data.map((m) => m.value.title)).toEqual(['two'])
    }
  })

  it('takes a subset body past the API limit of 8 KiB, up to the bound of the engine', async () => {
    // A long IN list is what TanStack DB's on-demand queries send for a page of keys.
    const ids = Array.from({ length: 900 }, (_, i) => i + 100_000)
    const where = `id IN (${ids.map((_, i) => `$${i + 1}`).join(', ')}) OR id = 2`
    const params = Object.fromEntries(
      ids.map((id, i) => [String(i + 1), String(id)]),
    )
    const body = JSON.stringify({ where, params })
    expect(body.length).toBeGreaterThan(8 * 1024)
    const post = await fetch(
      shapeUrl({
        table: 'items',
        offset: '-1',
        log: 'changes_only',
        ...credentials(),
      }),
      { method: 'POST', headers: { 'content-type': 'application/json' }, body },
    )
    expect(post.status).toBe(200)
    const { data } = (await post.json()) as {
      data: Array<{ value: { title: string } }>
    }
    expect(data.map((m) => m.value.title)).toEqual(['two'])
    const huge = await fetch(
      shapeUrl({
        table: 'items',
        offset: '-1',
        log: 'changes_only',
        ...credentials(),
      }),
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          where: 'id = 1',
          pad: 'x'.repeat(2 * 1024 * 1024),
        }),
      },
    )
    expect(huge.status).toBe(413)
  })

  it('streams live changes as server-sent events to a client with liveSse', async () => {
    const types: string[] = []
    const aborter = new AbortController()
    const shape = new Shape(
      new ShapeStream({
        url: `${server.origin}/v1/shape`,
        params: { table: 'items', ...credentials() },
        liveSse: true,
        signal: aborter.signal,
        fetchClient: async (input, init) => {
          const response = await fetch(input, init)
          if (String(input).includes('live_sse=true'))
            types.push(response.headers.get('content-type') ?? '')
          return response
        },
      }),
    )
    await shape.rows
    await database.db.query(`insert into items values (50, 'streamed')`)
    await expect
      .poll(() => shape.currentRows.some((row) => row.title === 'streamed'))
      .toBe(true)
    aborter.abort()
    expect(types[0]).toBe('text/event-stream')
  })
})

const credentials = () => ({
  source_id: source.id,
  source_secret: source.secret,
})
