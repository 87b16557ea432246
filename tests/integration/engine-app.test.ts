// The standalone engine's HTTP rules: secret, health, CORS, deletion switch, and rotation of
// a table's shapes after TRUNCATE or a schema change.
import { Shape, ShapeStream } from '@electric-sql/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AddressInfo } from 'node:net'
import { createEngineApp } from '../../src/engine/http/app.ts'
import { createEngineServer } from '../../src/engine/http/node-listener.ts'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'

let source: TestDatabase
let engine: TestEngine
const aborters: AbortController[] = []

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(`create table things (id int primary key, name text)`)
  await source.db.query(`insert into things values (1, 'a'), (2, 'b')`)
  engine = await startTestEngine(source.url)
}, 60_000)

afterAll(async () => {
  for (const a of aborters) a.abort()
  await engine?.destroy()
  await source?.drop()
})

function follow(table: string) {
  const aborter = new AbortController()
  aborters.push(aborter)
  return new Shape(
    new ShapeStream({
      url: engine.shapeUrl,
      params: { table },
      signal: aborter.signal,
    }),
  )
}

describe('the standalone engine app', () => {
  it('requires the secret when one is set, without saying more', async () => {
    const app = createEngineApp({ database: engine.database, secret: 's3cret' })
    expect((await app.request('/v1/shape?table=things&offset=-1')).status).toBe(
      401,
    )
    expect(
      (await app.request('/v1/shape?table=things&offset=-1&secret=wrong'))
        .status,
    ).toBe(401)
    const ok = await app.request(
      '/v1/shape?table=things&offset=-1&secret=s3cret',
    )
    expect(ok.status).toBe(200)
    expect(ok.headers.get('access-control-expose-headers')).toContain(
      'electric-handle',
    )
    expect(ok.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('asks the secret on the server’s direct path too, and its refusals carry CORS', async () => {
    const server = createEngineServer({
      database: engine.database,
      secret: 's3cret',
    })
    await new Promise<void>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve()),
    )
    const { port } = server.address() as AddressInfo
    const get = (query: string) =>
      fetch(`http://127.0.0.1:${port}/v1/shape?${query}`)
    try {
      for (const query of [
        'table=things&offset=-1',
        'table=things&offset=-1&secret=wrong',
      ]) {
        const refused = await get(query)
        expect(refused.status).toBe(401)
        expect(await refused.json()).toEqual({
          message: 'Unauthorized - Invalid API secret',
        })
        expect(refused.headers.get('access-control-allow-origin')).toBe('*')
      }
      const invalid = await get('offset=-1&secret=s3cret')
      expect(invalid.status).toBe(400)
      expect(invalid.headers.get('cache-control')).toBe('no-store')
      expect(invalid.headers.get('access-control-allow-origin')).toBe('*')
      const ok = await get('table=things&offset=-1&secret=s3cret')
      expect(ok.status).toBe(200)
      expect(ok.headers.get('access-control-allow-origin')).toBe('*')
      expect(ok.headers.get('content-length')).toBe(
        String((await ok.arrayBuffer()).byteLength),
      )
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('reports health and answers CORS preflight', async () => {
    const app = createEngineApp({ database: engine.database })
    const health = await app.request('/v1/health')
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ status: 'active' })
    const preflight = await app.request('/v1/shape', { method: 'OPTIONS' })
    expect(preflight.status).toBe(204)
  })

  it('refuses DELETE /v1/shape unless deletion is enabled, and 404s an unknown shape', async () => {
    const closed = createEngineApp({ database: engine.database })
    expect(
      (await closed.request('/v1/shape?table=things', { method: 'DELETE' }))
        .status,
    ).toBe(405)
    const open = createEngineApp({
      database: engine.database,
      allowShapeDeletion: true,
    })
    const missing = await open.request('/v1/shape?handle=nope', {
      method: 'DELETE',
    })
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({
      message: 'No existing shape found',
    })
  })

  it(
    'rotates the shapes of a truncated table; clients refetch and see it empty',
    { timeout: 30_000 },
    async () => {
      await source.db.query(`create table truncated (id int primary key)`)
      await source.db.query(`insert into truncated values (1), (2)`)
      const shape = follow('truncated')
      expect(await shape.rows).toHaveLength(2)
      const handle = shape.handle
      await source.db.query(`truncate truncated`)
      await source.db.query(`insert into truncated values (3)`)
      await expect
        .poll(() => shape.handle, { timeout: 20_000 })
        .not.toBe(handle)
      await expect
        .poll(() => shape.currentRows.map((r) => r.id), { timeout: 20_000 })
        .toEqual([3])
    },
  )

  it(
    'rotates the shapes of a table whose schema changed; clients get the new column',
    { timeout: 30_000 },
    async () => {
      await source.db.query(
        `create table evolving (id int primary key, a text)`,
      )
      await source.db.query(`insert into evolving values (1, 'x')`)
      const shape = follow('evolving')
      expect(await shape.rows).toEqual([{ id: 1, a: 'x' }])
      const handle = shape.handle
      await source.db.query(`alter table evolving add column b int`)
      await source.db.query(`update evolving set b = 7 where id = 1`)
      await expect
        .poll(() => shape.handle, { timeout: 20_000 })
        .not.toBe(handle)
      await expect
        .poll(() => shape.currentRows, { timeout: 20_000 })
        .toEqual([{ id: 1, a: 'x', b: 7 }])
    },
  )
})
