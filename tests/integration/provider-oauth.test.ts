// Connecting a Supabase or Neon account by OAuth against the fakes: good, forged and replayed
// state, another browser's callback, refresh serialized across concurrent requests, a revoked
// grant turning into 401, and disconnecting (revoked at the provider).
import { randomBytes } from 'node:crypto'
import {
  afterAll,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
  vi,
} from 'vitest'
import { Browser, buildApp, signInLocally, type App } from '../support/app.ts'
import { useControlPlaneDatabase } from '../support/database.ts'
import { startFakeNeon, type FakeNeon } from '../support/fake-neon.ts'
import {
  startFakeSupabase,
  type FakeSupabase,
} from '../support/fake-supabase.ts'
import {
  approve,
  beginConnect,
  connectionOf,
  connectOAuth,
  type ProviderName,
} from '../support/providers.ts'

const database = useControlPlaneDatabase()
let supabase: FakeSupabase
let neon: FakeNeon
let app: App

beforeAll(async () => {
  supabase = await startFakeSupabase()
  neon = await startFakeNeon()
  app = buildApp(database.db, { ...supabase.env, ...neon.env })
})
afterAll(async () => {
  await supabase.close()
  await neon.close()
})
/** Sessions of this database waiting for a lock another holds. */
async function lockWaiters(): Promise<number> {
  const { rows } = await database.db.query<{ n: number }>(
    `select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`,
  )
  return rows[0]?.n ?? 0
}

beforeEach(() => {
  supabase.reset()
  neon.reset()
  supabase.seed({ organizations: [{ id: '1', slug: 'acme', name: 'Acme' }] })
  neon.seed({
    projects: [
      {
        id: 'p-1',
        name: 'App',
        created_at: '2026-01-01T00:00:00Z',
        branches: [],
      },
    ],
  })
})

const fakes = () => ({ supabase, neon })
/** The cheapest list of each provider: 200 when connected, 401 when not. */
const LIST: Record<ProviderName, string> = {
  supabase: '/api/public/supabase/organizations',
  neon: '/api/public/neon/projects',
}

describe.each<ProviderName>(['supabase', 'neon'])('%s OAuth', (provider) => {
  const start = `/sources/new/${provider}/`

  it('connects and returns to the wizard page the user started from', async () => {
    const { browser } = await signInLocally(app)
    const authorize = await beginConnect(browser, provider, `${start}?x=1`)
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256')
    if (provider === 'neon')
      expect(authorize.searchParams.get('scope')).toMatch(
        /offline offline_access.*projects:read/,
      )
    const response = await browser.get(await approve(authorize))

    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(`${start}?x=1`)
    expect(await connectionOf(browser, provider)).toMatchObject({
      method: 'oauth',
    })
    expect((await browser.get(LIST[provider])).status).toBe(200)
    const exchange = fakes()[provider].tokenRequests()[0]
    expect(exchange).toMatchObject({ grantType: 'authorization_code' })
    expect(exchange?.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  it('refuses a forged state and connects nothing', async () => {
    const { browser } = await signInLocally(app)
    const authorize = await beginConnect(browser, provider)
    const callback = new URL(await approve(authorize), 'http://localhost')
    callback.searchParams.set('state', randomBytes(32).toString('base64url'))
    const response = await browser.get(`${callback.pathname}${callback.search}`)

    const location = new URL(
      response.headers.get('location') ?? '',
      'http://localhost',
    )
    expect(location.pathname).toBe(start)
    expect(location.searchParams.get('provider_error')).toMatch(
      /invalid or has expired/,
    )
    expect(await connectionOf(browser, provider)).toBeNull()
    expect(fakes()[provider].tokenRequests()).toHaveLength(0)
  })

  it('refuses a replayed callback: the code is exchanged once', async () => {
    const { browser } = await signInLocally(app)
    const callback = await approve(await beginConnect(browser, provider))
    expect((await browser.get(callback)).headers.get('location')).toBe(start)
    const replay = await browser.get(callback)

    expect(replay.headers.get('location')).toMatch(/provider_error=/)
    expect(fakes()[provider].tokenRequests()).toHaveLength(1)
  })

  it("refuses a callback in another user's browser", async () => {
    const { browser } = await signInLocally(app)
    const other = await signInLocally(app)
    const callback = await approve(await beginConnect(browser, provider))
    const response = await other.browser.get(callback)

    expect(response.headers.get('location')).toMatch(/provider_error=/)
    expect(await connectionOf(other.browser, provider)).toBeNull()
    expect(await connectionOf(browser, provider)).toBeNull()
  })

  it('sends a provider error back to the page, and a return_to elsewhere to the start', async () => {
    const { browser } = await signInLocally(app)
    const authorize = await beginConnect(
      browser,
      provider,
      'https://evil.example/',
    )
    const response = await browser.get(
      `/api/public/auth/${provider}/callback?error=access_denied&state=${authorize.searchParams.get('state')}`,
    )
    const location = new URL(
      response.headers.get('location') ?? '',
      'http://localhost',
    )
    expect(location.pathname).toBe(start)
    expect(location.searchParams.get('provider_error')).toMatch(
      /did not grant access/,
    )
  })

  it.each([
    '/sources/new/../../..//evil.example/',
    '//evil.example/sources/new/',
    '/sources\\new/',
    '/teams/',
  ])('never returns to %s', async (returnTo) => {
    const { browser } = await signInLocally(app)
    const callback = await approve(
      await beginConnect(browser, provider, returnTo),
    )
    expect((await browser.get(callback)).headers.get('location')).toBe(start)
  })

  it('refreshes once for concurrent requests near expiry; the rotated refresh token is never reused', async () => {
    const { browser } = await signInLocally(app)
    fakes()[provider].setExpiresIn(30) // inside the refresh margin from the start
    await connectOAuth(browser, provider)
    fakes()[provider].setExpiresIn(3600)
    fakes()[provider].holdTokens()

    const asked = Promise.all(
      Array.from({ length: 4 }, () => browser.get(LIST[provider])),
    )
    // A refresh is held at the provider while the other requests wait for it on the
    // connection's row; unserialized, all four would be held at the provider instead.
    await vi.waitFor(
      async () => {
        const held = fakes()[provider].heldTokens()
        const waiting = held === 1 ? await lockWaiters() : 0
        expect(held === 4 || waiting === 3).toBe(true)
      },
      { timeout: 10_000, interval: 20 },
    )
    fakes()[provider].releaseTokens()
    const answers = await asked

    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200])
    const requests = fakes()[provider].tokenRequests()
    const refreshes = requests.filter((r) => r.grantType === 'refresh_token')
    expect(refreshes).toHaveLength(1)
    expect(refreshes.filter((r) => r.refused)).toHaveLength(0)
    expect(await connectionOf(browser, provider)).not.toBeNull()
  })

  it('turns a revoked grant into 401 and forgets the connection', async () => {
    const { browser } = await signInLocally(app)
    await connectOAuth(browser, provider)
    fakes()[provider].revokeAll()

    const response = await browser.get(LIST[provider])
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({
      message: expect.stringMatching(/^Not connected/),
    })
    expect(await connectionOf(browser, provider)).toBeNull()
  })

  it('turns a refused refresh into 401 and forgets the connection', async () => {
    const { browser } = await signInLocally(app)
    fakes()[provider].setExpiresIn(30)
    await connectOAuth(browser, provider)
    fakes()[provider].revokeAll()

    expect((await browser.get(LIST[provider])).status).toBe(401)
    expect(await connectionOf(browser, provider)).toBeNull()
  })

  it('disconnects: revoked at the provider, then deleted', async () => {
    const { browser } = await signInLocally(app)
    await connectOAuth(browser, provider)
    const response = await browser.request(
      `/api/v1/provider-connections/${provider}`,
      {
        method: 'DELETE',
        headers: { origin: browser.origin },
      },
    )

    expect(response.status).toBe(204)
    expect(fakes()[provider].revoked()).toHaveLength(1)
    expect(await connectionOf(browser, provider)).toBeNull()
    expect((await browser.get(LIST[provider])).status).toBe(401)
  })
})

describe('without OAuth configured', () => {
  it('sends the user back with a message, and says so in the connections list', async () => {
    const bare = buildApp(database.db)
    const { browser } = await signInLocally(bare)
    const response = await browser.get(
      '/api/public/auth/neon/login?return_to=/sources/new/neon/branches',
    )
    const location = new URL(
      response.headers.get('location') ?? '',
      'http://localhost',
    )
    expect(location.pathname).toBe('/sources/new/neon/branches')
    expect(location.searchParams.get('provider_error')).toMatch(
      /not configured/,
    )
    const list = await (
      await browser.get('/api/v1/provider-connections')
    ).json()
    expect(list).toMatchObject({
      providers: [
        { provider: 'supabase', oauth: false, connection: null },
        { provider: 'neon', oauth: false, connection: null },
      ],
      supabase_db_host_template: 'db.{ref}.supabase.co:5432',
    })
  })

  it('sends a signed-out visitor back without starting anything', async () => {
    const response = await new Browser(app).get(
      '/api/public/auth/supabase/login',
    )
    expect(response.headers.get('location')).toMatch(
      /^\/sources\/new\/supabase\/\?provider_error=Sign/,
    )
  })
})
