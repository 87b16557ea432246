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
    insert into items values (1, 'one', 'red', 10), (2, 'two', 'blue', 20), (3, 'three', 'red', 30)`)
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
