// Postgres text cannot hold U+0000: a NUL in any string a request carries (JSON body, query
// string) is a 400 naming the field, never a 500 or Postgres's own words, and a sign-in that
// fails on one leaves the caller's session as it was.
import { randomInt } from 'node:crypto'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../src/server/auth/cookies.ts'
import {
  answerError,
  UNSTORABLE_TEXT_MESSAGE,
} from '../../src/server/platform/http/errors.ts'
import { CLAIMABLE_SOURCES_PATH } from '../../src/shared/claimable-sources.ts'
import { ONBOARDING_INTENT_PATH } from '../../src/shared/onboarding.ts'
import { VALIDATE_DATABASE_URL_PATH } from '../../src/shared/validation.ts'
import { Browser, ORIGIN, uniqueEmail, type App } from '../support/app.ts'
import { setCookieFor } from '../support/cookie-jar.ts'
import { startFakeOAuth, type FakeOAuth } from '../support/fake-oauth.ts'
import { skip, useSourcesApi } from '../support/sources-api.ts'

const NUL = '\u0000'
const REFUSED = 'must not contain a NUL character'
const ADMIN_TOKEN = 'admin-token-for-nul-bytes-test'
const URL_WITH_NUL = `postgres://u:p@127.0.0.1/d${NUL}b`

const api = useSourcesApi()
let fake: FakeOAuth
let oauth: App
let admin: App
beforeAll(async () => {
  fake = await startFakeOAuth()
  oauth = api.buildApp(fake.env)
  admin = api.buildApp({ SLUICE_ADMIN_TOKEN: ADMIN_TOKEN })
})
afterAll(async () => {
  await fake.close()
})

type Answer = { status: number; body: Record<string, unknown> }

async function send(
  browser: Browser,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await browser.request(path, {
    method,
    headers: {
      origin: ORIGIN,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
  }
}

function expectRefused(answer: Answer, field: string) {
  expect(answer).toEqual({
    status: 400,
    body: {
      message: `${field}: ${REFUSED}`,
      errors: [{ path: field.split('.'), message: REFUSED }],
    },
  })
}

async function signedIn() {
  const { browser, teamId } = await api.signIn()
  const me = await send(browser, 'GET', '/api/v1/users/me')
  return { browser, teamId, userId: me.body.id as string }
}

describe('JSON bodies', () => {
  it('local sign-in: name and email', async () => {
    const browser = new Browser(api.app)
    const login = '/api/public/auth/local/login'
    const email = uniqueEmail()
    expectRefused(
      await send(browser, 'POST', login, { name: `A${NUL}da`, email }),
      'name',
    )
    expectRefused(
      await send(browser, 'POST', login, {
        name: 'Ada',
        email: `a${NUL}${email}`,
      }),
      'email',
    )
  })

  it('a refused sign-in leaves the signed-in caller signed in', async () => {
    const { browser } = await signedIn()
    const answer = await send(browser, 'POST', '/api/public/auth/local/login', {
      name: `A${NUL}da`,
      email: uniqueEmail(),
    })
    expect(answer.status).toBe(400)
    expect((await browser.get('/api/v1/users/me')).status).toBe(200)
  })

  it('sources: create and rename', async () => {
    const { browser, teamId } = await signedIn()
    const create = { region: 'eu-west-1', team_id: teamId }
    const url = 'postgres://u:p@127.0.0.1/db'
    const put = (body: object) =>
      send(browser, 'PUT', `/api/v1/sources${skip}`, body)
    expectRefused(
      await put({ ...create, database_url: URL_WITH_NUL }),
      'database_url',
    )
    expectRefused(
      await put({ ...create, database_url: url, name: `n${NUL}` }),
      'name',
    )
    expectRefused(
      await put({ ...create, database_url: url, instance: `i${NUL}` }),
      'instance',
    )
    expect(await api.teamSources(teamId)).toBe(0)
    const created = await put({ ...create, database_url: url })
    expect(created.status).toBe(201)
    expectRefused(
      await send(browser, 'PATCH', `/api/v1/sources/${created.body.id}`, {
        name: `n${NUL}`,
      }),
      'name',
    )
  })

  it('alert destinations: url and email', async () => {
    const { browser, teamId } = await signedIn()
    const path = `/api/v1/teams/${teamId}/alert-destinations`
    expectRefused(
      await send(browser, 'POST', path, { url: `https://e${NUL}.example` }),
      'url',
    )
    expectRefused(
      await send(browser, 'POST', path, { email: `a${NUL}@example.com` }),
      'email',
    )
  })

  it('provider connections: token', async () => {
    const { browser } = await signedIn()
    expectRefused(
      await send(browser, 'PUT', '/api/v1/provider-connections/supabase', {
        token: `t${NUL}`,
      }),
      'token',
    )
  })

  it('onboarding intent: each field, in its ZodError body', async () => {
    const { browser } = await signedIn()
    const intent = {
      company: 'Acme',
      website: 'https://acme.example',
      description: 'We build things',
    }
    for (const field of ['company', 'website', 'description']) {
      const answer = await send(browser, 'POST', ONBOARDING_INTENT_PATH, {
        ...intent,
        [field]: `${intent[field as keyof typeof intent]}${NUL}`,
      })
      expect(answer).toEqual({
        status: 400,
        body: {
          error: {
            name: 'ZodError',
            issues: [{ path: [field], message: REFUSED }],
          },
        },
      })
    }
  })

  it('public: the database check, claimable sources and setup forms', async () => {
    const visitor = new Browser(api.app)
    expectRefused(
      await send(visitor, 'POST', VALIDATE_DATABASE_URL_PATH, {
        database_url: URL_WITH_NUL,
      }),
      'database_url',
    )
    expectRefused(
      await send(visitor, 'POST', CLAIMABLE_SOURCES_PATH, {
        database_url: URL_WITH_NUL,
      }),
      'database_url',
    )
    const { browser, teamId } = await signedIn()
    const form = await send(
      browser,
      'POST',
      `/api/v1/teams/${teamId}/source-setup-forms`,
      {},
    )
    expect(form.status).toBe(201)
    expectRefused(
      await send(
        visitor,
        'POST',
        `/api/public/source-setup-forms/${form.body.id}/use`,
        { database_url: URL_WITH_NUL, region: 'eu-west-1' },
      ),
      'database_url',
    )
  })

  it('the admin API: team and user names and emails', async () => {
    const browser = new Browser(admin)
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}` }
    const post = (path: string, body: object) =>
      send(browser, 'POST', `/api/admin${path}`, body, auth)
    const refusal = (field: string) => ({
      status: 400,
      body: { message: `${field} ${REFUSED}` },
    })
    expect(await post('/teams', { name: `t${NUL}` })).toEqual(refusal('name'))
    expect(
      await post('/users', { name: `u${NUL}`, email: uniqueEmail() }),
    ).toEqual(refusal('name'))
    expect(
      await post('/users', { name: 'u', email: `a${NUL}${uniqueEmail()}` }),
    ).toEqual(refusal('email'))
    const users = await send(
      browser,
      'GET',
      `/api/admin/users?email=${encodeURIComponent(`a${NUL}@example.com`)}`,
      undefined,
      auth,
    )
    expect(users).toEqual(refusal('email'))
  })
})

describe('query strings', () => {
  it('the OAuth callback: state', async () => {
    const browser = new Browser(oauth)
    const query = new URLSearchParams({ state: `s${NUL}`, code: 'c' })
    const response = await browser.get(
      `/api/public/auth/github/callback?${query}`,
    )
    expectRefused(
      {
        status: response.status,
        body: (await response.json()) as Record<string, unknown>,
      },
      'state',
    )
  })
})

describe('OAuth profiles', () => {
  async function githubSignIn(browser: Browser, name: string, email: string) {
    const login = await browser.get('/api/public/auth/github/login')
    const state = new URL(login.headers.get('location') ?? '').searchParams.get(
      'state',
    )
    const code = fake.github.grant({
      id: Math.floor(Math.random() * 2 ** 40),
      login: 'octo',
      name,
      emails: [{ email, primary: true, verified: true }],
    })
    const query = new URLSearchParams({ state: state ?? '', code })
    return browser.get(`/api/public/auth/github/callback?${query}`)
  }

  it('a NUL in the provider name signs in, without the NUL', async () => {
    const browser = new Browser(oauth)
    const response = await githubSignIn(browser, `Gr${NUL}ace`, uniqueEmail())
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/welcome')
    const me = await send(browser, 'GET', '/api/v1/users/me')
    expect(me.body.name).toBe('Grace')
  })

  /** A sign-in that fails leaves the caller's session as it was. */
  async function expectFailedKeepingSession(
    browser: Browser,
    failed: Response,
  ) {
    expect(failed.status).toBe(302)
    expect(failed.headers.get('location')).toBe(
      '/?sign_in_error=provider_failed',
    )
    // The session cookie is neither replaced nor cleared, and still opens the API.
    expect(setCookieFor(failed, SESSION_COOKIE)).toBeUndefined()
    expect((await browser.get('/api/v1/users/me')).status).toBe(200)
  }

  it('a NUL in the provider email is refused, and the caller stays signed in', async () => {
    const browser = new Browser(oauth)
    const first = await githubSignIn(browser, 'Grace', uniqueEmail())
    expect(first.status).toBe(302)
    const refused = await githubSignIn(
      browser,
      'Grace',
      `g${NUL}${uniqueEmail()}`,
    )
    await expectFailedKeepingSession(browser, refused)
  })

  it('a sign-in the database refuses leaves the caller signed in', async () => {
    const browser = new Browser(oauth)
    const first = await githubSignIn(browser, 'Grace', uniqueEmail())
    expect(first.status).toBe(302)
    // A subject past what an index row holds (characters that do not compress): Postgres
    // refuses the identity's row, after the sign-in began.
    const sub = Array.from({ length: 3000 }, () =>
      String.fromCodePoint(0x4e00 + randomInt(0x5000)),
    ).join('')
    const login = await browser.get('/api/public/auth/google/login')
    const asked = new URL(login.headers.get('location') ?? '').searchParams
    const code = fake.google.grant({
      sub,
      email: uniqueEmail(),
      nonce: asked.get('nonce') ?? '',
      email_verified: true,
    })
    const query = new URLSearchParams({ state: asked.get('state') ?? '', code })
    const refused = await browser.get(
      `/api/public/auth/google/callback?${query}`,
    )
    await expectFailedKeepingSession(browser, refused)
  })
})

describe('a NUL that reaches Postgres another way', () => {
  it('is a 400 with Sluice’s words, not a 500 or Postgres’s', async () => {
    // Every route refuses a NUL before it queries: a route that does not, on the app's own
    // error handler and the real Postgres, stands for the one a future change forgets.
    const app = new Hono()
      .post('/echo', async (c) => {
        const { rows } = await api.db.query<{ t: string }>(
          'select $1::text t',
          [(await c.req.json<{ text: string }>()).text],
        )
        return c.json(rows[0])
      })
      .onError(answerError(api.capture))
    const echo = (text: string) =>
      app.request('/echo', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text }),
      })
    expect((await echo('fine')).status).toBe(200)
    const refused = await echo(`n${NUL}`)
    expect(refused.status).toBe(400)
    expect(await refused.json()).toEqual({ message: UNSTORABLE_TEXT_MESSAGE })
  })
})
