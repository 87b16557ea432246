// The analytics proxy against a fake PostHog: what it forwards (method, path, query, body,
// a few headers), what it never forwards (cookies, credentials), and how it fails (502, 504).
import { Hono } from 'hono'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ingestRoutes } from '../../src/server/analytics/ingest.ts'
import { parseEnv } from '../../src/server/platform/env.ts'
import type { AppEnv } from '../../src/server/platform/http/context.ts'
import {
  Browser,
  buildApp,
  ORIGIN,
  signInLocally,
  testDeps,
  type App,
} from '../support/app.ts'
import { useControlPlaneDatabase } from '../support/database.ts'
import { startFakePostHog, type FakePostHog } from '../support/fake-posthog.ts'

const KEY = 'phc_test_key'
const database = useControlPlaneDatabase()
let fake: FakePostHog
let app: App

beforeAll(async () => {
  fake = await startFakePostHog()
  app = buildApp(database.db, { POSTHOG_KEY: KEY, POSTHOG_HOST: fake.url })
})
afterAll(async () => {
  await fake.close()
})

/** The requests the fake received since `before` (its request count then). */
const receivedSince = (before: number) => fake.requests.slice(before)

/** A port nothing listens on: bound by us, then released. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe('GET /api/public/analytics', () => {
  it('answers a null key when POSTHOG_KEY is unset', async () => {
    const response = await buildApp(database.db).request(
      `${ORIGIN}/api/public/analytics`,
    )
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ key: null, uiHost: null })
  })

  it('answers the key and PostHog app host when set', async () => {
    const cloud = buildApp(database.db, { POSTHOG_KEY: KEY })
    const response = await cloud.request(`${ORIGIN}/api/public/analytics`)
    expect(await response.json()).toEqual({
      key: KEY,
      uiHost: 'https://us.posthog.com',
    })
  })
})

describe('the /ingest proxy', () => {
  it('forwards method, path, query and the body byte for byte', async () => {
    const { browser } = await signInLocally(app)
    // The browser does hold a session cookie, which must stay on our side.
    expect(browser.jar.header(`${ORIGIN}/ingest/e/`)).toContain('sluice_')
    const events = [{ event: '$pageview', properties: { $current_url: 'x' } }]
    const body = gzipSync(JSON.stringify(events))
    const before = fake.requests.length

    const response = await browser.request(
      '/ingest/e/?compression=gzip-js&ver=1.449.2',
      {
        method: 'POST',
        headers: {
          'content-type': 'text/plain',
          'content-encoding': 'gzip',
          authorization: 'Bearer not-for-posthog',
          'x-forwarded-for': '203.0.113.7',
        },
        body: new Uint8Array(body),
      },
    )

    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ status: 1 })
    // The fake sets a cookie on every answer; it must not land on our origin.
    expect(response.headers.get('set-cookie')).toBeNull()
    const [received, ...more] = receivedSince(before)
    expect(more).toEqual([])
    expect(received?.method).toBe('POST')
    expect(received?.path).toBe('/e/')
    expect(received?.query).toEqual({ compression: 'gzip-js', ver: '1.449.2' })
    expect(received?.body.equals(body)).toBe(true)
    expect(received?.headers['content-type']).toBe('text/plain')
    expect(received?.headers['content-encoding']).toBe('gzip')
    expect(received?.headers['x-forwarded-for']).toBe('203.0.113.7')
    expect(received?.headers.cookie).toBeUndefined()
    expect(received?.headers.authorization).toBeUndefined()
    expect(fake.events.at(-1)).toEqual(events[0])
  })

  it('forwards GETs with their query, and asset paths', async () => {
    const before = fake.requests.length
    const flags = await app.request(`${ORIGIN}/ingest/flags/?v=2&config=true`)
    expect(flags.status).toBe(200)
    const asset = await app.request(`${ORIGIN}/ingest/static/array.js`)
    expect(await asset.json()).toEqual({ path: '/static/array.js' })
    expect(
      receivedSince(before).map(({ method, path, query }) => ({
        method,
        path,
        query,
      })),
    ).toEqual([
      { method: 'GET', path: '/flags/', query: { v: '2', config: 'true' } },
      { method: 'GET', path: '/static/array.js', query: {} },
    ])
  })

  it('keeps the upstream host whatever the path says', async () => {
    const before = fake.requests.length
    const response = await app.request(`${ORIGIN}/ingest//evil.example/x`)
    expect(response.status).toBe(200)
    expect(receivedSince(before).map((r) => r.path)).toEqual([
      '//evil.example/x',
    ])
  })

  it('forwards nothing when analytics is off', async () => {
    const before = fake.requests.length
    const off = buildApp(database.db, { POSTHOG_HOST: fake.url })
    const response = await new Browser(off).request('/ingest/e/', {
      method: 'POST',
      body: '[]',
    })
    expect(response.status).toBe(404)
    expect(receivedSince(before)).toEqual([])
  })

  it('answers 502 when PostHog is unreachable, and keeps serving', async () => {
    const unreachable = buildApp(database.db, {
      POSTHOG_KEY: KEY,
      POSTHOG_HOST: `http://127.0.0.1:${await closedPort()}`,
    })
    const response = await new Browser(unreachable).request('/ingest/e/', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '[]',
    })
    expect(response.status).toBe(502)
    const health = await unreachable.request(`${ORIGIN}/api/public/health`)
    expect(health.status).toBe(200)
  })

  it('answers 504 when PostHog does not answer in time', async () => {
    const env = parseEnv({ POSTHOG_KEY: KEY, POSTHOG_HOST: fake.url })
    const quick = new Hono<AppEnv>()
      .use(async (c, next) => {
        c.set('deps', { ...testDeps(database.db), env })
        await next()
      })
      .route('/ingest', ingestRoutes({ timeoutMs: 100 }))
    const response = await quick.request(`${ORIGIN}/ingest/hang`)
    expect(response.status).toBe(504)
  })

  it('streams the request body instead of buffering it', async () => {
    // The second chunk is only produced once PostHog has seen the first: a proxy that read
    // the whole body before forwarding would wait forever.
    let firstChunkArrived = () => {}
    const arrived = new Promise<void>((resolve) => {
      firstChunkArrived = resolve
    })
    const received: string[] = []
    const upstream = createServer((req, res) => {
      req.on('data', (chunk: Buffer) => {
        received.push(chunk.toString())
        firstChunkArrived()
      })
      req.on('end', () => res.end('ok'))
    })
    await new Promise<void>((resolve) =>
      upstream.listen(0, '127.0.0.1', resolve),
    )
    const { port } = upstream.address() as AddressInfo
    try {
      const streaming = buildApp(database.db, {
        POSTHOG_KEY: KEY,
        POSTHOG_HOST: `http://127.0.0.1:${port}`,
      })
      let sent = 0
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          sent += 1
          if (sent === 1) return controller.enqueue(Buffer.from('first,'))
          await arrived
          controller.enqueue(Buffer.from('second'))
          controller.close()
        },
      })
      const init: RequestInit & { duplex: 'half' } = {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body,
        duplex: 'half',
      }
      const response = await streaming.request(`${ORIGIN}/ingest/e/`, init)
      expect(await response.text()).toBe('ok')
      expect(received.join('')).toBe('first,second')
    } finally {
      upstream.closeAllConnections()
      await new Promise((resolve) => upstream.close(resolve))
    }
  })
})
