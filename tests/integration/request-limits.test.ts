// Request bodies and fields are bounded where they enter: a body past its route's cap is a 413
// read no further than the cap (with or without content-length), a field past its length a
// 400 naming it.
import { serve } from '@hono/node-server'
import { randomInt } from 'node:crypto'
import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  INGEST_BODY_LIMIT_BYTES,
  JSON_BODY_LIMIT_BYTES,
} from '../../src/server/platform/limits.ts'
import { VALIDATE_DATABASE_URL_PATH } from '../../src/shared/validation.ts'
import { Browser, ORIGIN, type App } from '../support/app.ts'
import { startFakePostHog, type FakePostHog } from '../support/fake-posthog.ts'
import { skip, useSourcesApi } from '../support/sources-api.ts'

const api = useSourcesApi()
let fake: FakePostHog
let analytics: App
beforeAll(async () => {
  fake = await startFakePostHog()
  analytics = api.buildApp({ POSTHOG_KEY: 'phc_test', POSTHOG_HOST: fake.url })
})
afterAll(async () => {
  await fake.close()
})

const CHUNK = 64 * 1024

/** A body sent as a stream with no content-length; `sent()` says how much was pulled. */
function streamedBody(total: number) {
  let sent = 0
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (sent >= total) return controller.close()
        const size = Math.min(CHUNK, total - sent)
        sent += size
        // Spaces: JSON whitespace, so only the size can be what is refused.
        controller.enqueue(new Uint8Array(size).fill(0x20))
      },
    },
    { highWaterMark: 0 },
  )
  return { stream, sent: () => sent }
}

function postStream(browser: Browser, path: string, stream: ReadableStream) {
  return browser.request(path, {
    method: 'POST',
    headers: { origin: ORIGIN, 'content-type': 'application/json' },
    body: stream,
    duplex: 'half',
  } as RequestInit)
}

const tooLarge = (limit: number) => ({
  message: `The request body is too large: at most ${limit} bytes are accepted.`,
})

describe('request bodies', () => {
  it('answers 413 to a streamed login body past the cap, without reading it all', async () => {
    const body = streamedBody(20 * 1024 * 1024)
    const response = await postStream(
      new Browser(api.app),
      '/api/public/auth/local/login',
      body.stream,
    )
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual(tooLarge(JSON_BODY_LIMIT_BYTES))
    expect(body.sent()).toBeLessThanOrEqual(JSON_BODY_LIMIT_BYTES + 2 * CHUNK)
  })

  it('answers 413 to a chunked body over a real socket, and closes it', async () => {
    const server = serve({
      fetch: api.app.fetch,
      port: 0,
      hostname: '127.0.0.1',
    })
    await new Promise((resolve) => server.once('listening', resolve))
    const { port } = server.address() as AddressInfo
    try {
      const answer = await new Promise<{
        status?: number
        body: string
        connection?: string
      }>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/api/public/auth/local/login',
            headers: {
              origin: `http://127.0.0.1:${port}`,
              'content-type': 'application/json',
              'transfer-encoding': 'chunked',
            },
          },
          (res) => {
            let body = ''
            res.on('data', (data: Buffer) => (body += data.toString()))
            res.on('end', () =>
              resolve({
                status: res.statusCode,
                body,
                connection: res.headers.connection,
              }),
            )
          },
        )
        // Writing into a socket the server closed fails; the answer is what counts.
        req.on('error', reject)
        const chunk = Buffer.alloc(CHUNK, 0x20)
        let written = 0
        const pump = (): void => {
          while (written < 64 * 1024 * 1024) {
            written += chunk.length
            if (!req.write(chunk)) {
              req.once('drain', pump)
              return
            }
          }
          req.end()
        }
        pump()
      })
      expect(answer.status).toBe(413)
      expect(JSON.parse(answer.body)).toEqual(tooLarge(JSON_BODY_LIMIT_BYTES))
      expect(answer.connection).toBe('close')
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('answers 413 from content-length alone on the public check', async () => {
    const body = JSON.stringify({
      database_url: `postgres://u:p@h/${'d'.repeat(JSON_BODY_LIMIT_BYTES)}`,
    })
    const response = await new Browser(api.app).request(
      VALIDATE_DATABASE_URL_PATH,
      {
        method: 'POST',
        headers: { origin: ORIGIN, 'content-type': 'application/json' },
        body,
      },
    )
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual(tooLarge(JSON_BODY_LIMIT_BYTES))
  })

  it('lets /ingest carry a larger batch, up to its own cap', async () => {
    const before = fake.requests.length
    const browser = new Browser(analytics)
    const batch = await browser.request('/ingest/batch', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: ' '.repeat(64 * 1024),
    })
    expect(batch.status).toBe(200)
    const huge = streamedBody(8 * INGEST_BODY_LIMIT_BYTES)
    const refused = await browser.request('/ingest/batch', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: huge.stream,
      duplex: 'half',
    } as RequestInit)
    expect(refused.status).toBe(413)
    expect(await refused.json()).toEqual(tooLarge(INGEST_BODY_LIMIT_BYTES))
    expect(huge.sent()).toBeLessThanOrEqual(INGEST_BODY_LIMIT_BYTES + 2 * CHUNK)
    expect(fake.requests.length).toBe(before + 1)
  })
})

describe('fields', () => {
  const longUrl = `postgres://u:p@127.0.0.1/${'d'.repeat(2100)}`

  it('answers 400 naming database_url on the public check', async () => {
    const response = await new Browser(api.app).postJson(
      VALIDATE_DATABASE_URL_PATH,
      { database_url: longUrl },
    )
    expect(response.status).toBe(400)
    expect(((await response.json()) as { message: string }).message).toBe(
      'database_url: A database URL must be at most 2048 characters',
    )
  })

  it('answers 400 naming the field on source create', async () => {
    const { browser, teamId } = await api.signIn()
    const body = { region: 'eu-west-1', team_id: teamId }
    const url = await api.put(browser, { ...body, database_url: longUrl }, skip)
    expect(url.status).toBe(400)
    expect(url.body.message).toBe(
      'database_url: A database URL must be at most 2048 characters',
    )
    const instance = await api.put(
      browser,
      {
        ...body,
        database_url: 'postgres://u:p@127.0.0.1/db',
        instance: 'i'.repeat(101),
      },
      skip,
    )
    expect(instance.status).toBe(400)
    expect(instance.body.message).toBe(
      'instance: instance must be at most 100 characters',
    )
    expect(await api.teamSources(teamId)).toBe(0)
  })

  it('answers 400 for a database name longer than Postgres allows, not a 500', async () => {
    const { browser, teamId } = await api.signIn()
    // 950 characters, 2850 bytes that do not compress: within the URL's length, past what
    // an index row holds (the old answer was a 500).
    const name = Array.from({ length: 950 }, () =>
      String.fromCodePoint(0x4e00 + randomInt(0x5000)),
    ).join('')
    const answer = await api.put(
      browser,
      {
        region: 'eu-west-1',
        team_id: teamId,
        database_url: `postgres://u:p@127.0.0.1/${name}`,
      },
      skip,
    )
    expect(answer.status).toBe(400)
    expect(answer.body.message).toBe(
      'The database name is longer than Postgres allows (63 bytes).',
    )
  })

  it('answers 400 naming the name or email of a local sign-in', async () => {
    const browser = new Browser(api.app)
    const name = await browser.postJson('/api/public/auth/local/login', {
      name: 'N'.repeat(201),
      email: 'ada@example.com',
    })
    expect(name.status).toBe(400)
    expect(((await name.json()) as { message: string }).message).toBe(
      'name: Name must be at most 200 characters',
    )
    const email = await browser.postJson('/api/public/auth/local/login', {
      name: 'Ada',
      email: `${'a'.repeat(320)}@example.com`,
    })
    expect(email.status).toBe(400)
    expect(((await email.json()) as { message: string }).message).toMatch(
      /^email: /,
    )
  })
})

describe('query parameters', () => {
  it('answers 400 naming an over-long OAuth callback parameter', async () => {
    const github = api.buildApp({
      GITHUB_CLIENT_ID: 'id',
      GITHUB_CLIENT_SECRET: 'secret',
    })
    const response = await new Browser(github).get(
      `/api/public/auth/github/callback?state=s&code=${'c'.repeat(2049)}`,
    )
    expect(response.status).toBe(400)
    expect(((await response.json()) as { message: string }).message).toBe(
      'code: must be at most 2048 characters',
    )
  })
})
