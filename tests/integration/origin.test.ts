// The cross-site request guard on state-changing API calls: own Origin, JSON bodies only; and
// in local mode, the calls exempt for scripts are refused to a browser on another site.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  Browser,
  buildApp,
  ORIGIN,
  uniqueEmail,
  type App,
} from '../support/app.ts'
import { CLAIMABLE_PATH } from '../support/claimable.ts'
import { countRows, useControlPlaneDatabase } from '../support/database.ts'
import {
  createSourceDatabase,
  type SourceDatabase,
} from '../support/sources.ts'

const database = useControlPlaneDatabase()
let app: App
beforeAll(() => {
  app = buildApp(database.db)
})

const loginBody = () =>
  JSON.stringify({ name: 'Origin Test', email: uniqueEmail('origin') })

describe.each([
  ['/api/public/auth/logout', () => undefined],
  ['/api/public/auth/local/login', loginBody],
])('POST %s', (path, body) => {
  const post = (
    headers: Record<string, string>,
    payload: string | Uint8Array<ArrayBuffer> | undefined = body(),
  ) =>
    new Browser(app).request(path, { method: 'POST', headers, body: payload })

  it('is refused without an Origin', async () => {
    const response = await post({ 'content-type': 'application/json' })
    expect(response.status).toBe(403)
    expect(await response.json()).toEqual({
      message: 'Cross-origin request refused',
    })
  })

  it.each([
    'https://evil.example.com',
    'http://localhost:5173',
    'https://localhost',
    'null',
  ])('is refused from Origin %s', async (origin) => {
    const response = await post({ origin, 'content-type': 'application/json' })
    expect(response.status).toBe(403)
  })

  it.each([
    ['text/plain', 'text/plain;charset=UTF-8'],
    ['a form', 'application/x-www-form-urlencoded'],
    ['multipart', 'multipart/form-data; boundary=x'],
    ['no content type', undefined],
  ])('is refused with a body sent as %s', async (_case, type) => {
    const sessions = await countRows(database.db, 'sessions')
    // Bytes, so that fetch adds no content type of its own.
    const bytes = new TextEncoder().encode(loginBody())
    const response = await post(
      { origin: ORIGIN, ...(type ? { 'content-type': type } : {}) },
      bytes,
    )
    expect(response.status).toBe(403)
    expect(await response.json()).toEqual({
      message: 'Request body must be application/json',
    })
    expect(await countRows(database.db, 'sessions')).toBe(sessions)
  })

  it('is refused as text/plain even without a content length', async () => {
    // In-process requests (and HTTP/2) may carry a body with no Content-Length.
    const response = await app.request(`${ORIGIN}${path}`, {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'text/plain' },
      body: loginBody(),
    })
    expect(response.status).toBe(403)
  })

  it('passes with its own Origin and JSON', async () => {
    const response = await post({
      origin: ORIGIN,
      'content-type': 'application/json',
    })
    expect(response.status).toBe(200)
  })
})

describe('the Origin guard', () => {
  it('leaves GET requests alone', async () => {
    const response = await app.request(`${ORIGIN}/api/public/health`, {
      headers: { origin: 'https://evil.example.com' },
    })
    expect(response.status).toBe(200)
  })

  it('compares with PUBLIC_URL when it is set', async () => {
    const hosted = buildApp(database.db, {
      SLUICE_MODE: 'hosted',
      SLUICE_SECRET: 'hosted-secret-'.padEnd(32, 'x'),
      PUBLIC_URL: 'https://sluice.example.com',
    })
    const browser = new Browser(hosted, 'https://sluice.example.com')
    const own = await browser.postJson('/api/public/auth/logout')
    expect(own.status).toBe(200)
    // The address the request reached is not our origin behind a proxy.
    const internal = await hosted.request(
      'http://10.0.0.5:5133/api/public/auth/logout',
      {
        method: 'POST',
        headers: { origin: 'http://10.0.0.5:5133' },
      },
    )
    expect(internal.status).toBe(403)
  })
})

describe('in local mode, the calls exempt for scripts', () => {
  const ADMIN_TOKEN = 'admin-token-'.padEnd(40, 'x')
  let local: App
  let source: SourceDatabase
  beforeAll(async () => {
    local = buildApp(database.db, { SLUICE_ADMIN_TOKEN: ADMIN_TOKEN })
    source = await createSourceDatabase()
  })
  afterAll(() => source.drop())

  // What a page on another site can send without a preflight: a text/plain body.
  const createClaimable = (headers: Record<string, string>) =>
    local.request(`${ORIGIN}${CLAIMABLE_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8', ...headers },
      body: JSON.stringify({ database_url: source.url }),
    })

  it.each([
    ['another site', { origin: 'http://evil.example' }],
    ['another port of this host', { origin: 'http://localhost:5173' }],
    ['an opaque origin', { origin: 'null' }],
    ['a cross-site fetch with no Origin', { 'sec-fetch-site': 'cross-site' }],
  ])(
    'refuse a claimable source from %s, and make nothing',
    async (_case, headers) => {
      const claims = await countRows(database.db, 'claimable_sources')
      const response = await createClaimable(headers)
      expect(response.status).toBe(403)
      expect(await response.json()).toEqual({
        message: 'Cross-origin request refused',
      })
      expect(await countRows(database.db, 'claimable_sources')).toBe(claims)
    },
    30_000,
  )

  it('refuse the admin API from another site, even with its token', async () => {
    const teams = await countRows(database.db, 'teams')
    const response = await local.request(`${ORIGIN}/api/admin/teams`, {
      method: 'POST',
      headers: {
        origin: 'http://evil.example',
        authorization: `Bearer ${ADMIN_TOKEN}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ name: 'Forged' }),
    })
    expect(response.status).toBe(403)
    expect(await countRows(database.db, 'teams')).toBe(teams)
  })

  it('still serve a script, which sends no Origin', async () => {
    const response = await createClaimable({})
    expect(response.status).toBe(201)
  }, 30_000)
})
