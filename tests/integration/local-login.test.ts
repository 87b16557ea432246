// Name-and-email sign-in: on for one machine with no provider, and nowhere else.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  SESSION_COOKIE,
  SESSION_HINT_COOKIE,
} from '../../src/server/auth/cookies.ts'
import { createUser } from '../../src/server/auth/users.ts'
import { Browser, buildApp, uniqueEmail, type App } from '../support/app.ts'
import { setCookieFor } from '../support/cookie-jar.ts'
import {
  clearRateLimits,
  countRows,
  useControlPlaneDatabase,
} from '../support/database.ts'

const database = useControlPlaneDatabase()
// The burst test's strict app must not inherit the sign-ins of the roomy ones before it.
beforeEach(() => clearRateLimits(database.db))
let local: App
beforeAll(() => {
  local = buildApp(database.db)
})

const github = { GITHUB_CLIENT_ID: 'id', GITHUB_CLIENT_SECRET: 'secret' }
const login = (app: App, body: unknown) =>
  new Browser(app).postJson('/api/public/auth/local/login', body)

describe('local login with no provider configured', () => {
  it('signs in with a name and email', async () => {
    const email = uniqueEmail('local')
    const browser = new Browser(local)
    const response = await browser.postJson('/api/public/auth/local/login', {
      name: '  Ada Lovelace ',
      email,
    })
    expect(response.status).toBe(200)
    const { first_sign_in, ...user } = (await response.json()) as {
      id: string
      first_sign_in: boolean
    }
    expect(user).toEqual({
      id: expect.any(String),
      email,
      name: 'Ada Lovelace',
    })
    // The page goes on to /welcome (onboarding) the first time only.
    expect(first_sign_in).toBe(true)
    const again = await new Browser(local).postJson(
      '/api/public/auth/local/login',
      { name: 'Ada Lovelace', email },
    )
    expect(await again.json()).toMatchObject({ first_sign_in: false })
    const cookie = setCookieFor(response, SESSION_COOKIE)
    expect(cookie?.httpOnly).toBe(true)
    expect(cookie?.sameSite).toBe('lax')

    const me = await browser.get('/api/public/auth/user')
    expect(me.status).toBe(200)
    expect(await me.json()).toEqual(user)
  })

  it('sets a page-readable hint naming the user with the session, and clears both at logout', async () => {
    const browser = new Browser(local)
    const response = await browser.postJson('/api/public/auth/local/login', {
      name: 'Ada',
      email: uniqueEmail('hint'),
    })
    const { id } = (await response.json()) as { id: string }
    const hint = setCookieFor(response, SESSION_HINT_COOKIE)
    // Whose session it is: the user's id, which grants nothing.
    expect(hint?.value).toBe(id)
    expect(hint?.httpOnly).toBe(false)
    expect(hint?.path).toBe('/')
    expect(hint?.maxAge).toBe(setCookieFor(response, SESSION_COOKIE)?.maxAge)

    const logout = await browser.postJson('/api/public/auth/logout')
    expect(setCookieFor(logout, SESSION_HINT_COOKIE)?.maxAge).toBe(0)
    expect(setCookieFor(logout, SESSION_COOKIE)?.maxAge).toBe(0)
  })

  it('finds the same user for the same email in any case', async () => {
    const email = uniqueEmail('case')
    const first = await (await login(local, { name: 'A', email })).json()
    const again = await login(local, { name: 'A', email: email.toUpperCase() })
    expect(((await again.json()) as { id: string }).id).toBe(
      (first as { id: string }).id,
    )
  })

  it('signs in as the user the admin tool made with that email, as a first sign-in', async () => {
    const email = uniqueEmail('invited')
    const id = await createUser(database.db, { name: 'Invited', email })
    const response = await login(local, { name: 'Someone', email })
    expect(await response.json()).toMatchObject({
      id,
      name: 'Invited',
      first_sign_in: true,
    })
  })

  it.each([
    [
      'an invalid email',
      { name: 'Ada', email: 'not-an-email' },
      'email: Enter a valid email address',
    ],
    [
      'an empty name',
      { name: '   ', email: 'ada@example.com' },
      'name: Name is required',
    ],
    ['a missing email', { name: 'Ada' }, /^email: /],
  ])('answers %s with 400 and a message', async (_case, body, message) => {
    const sessions = await countRows(database.db, 'sessions')
    const response = await login(local, body)
    expect(response.status).toBe(400)
    const json = (await response.json()) as { message: string }
    if (typeof message === 'string') expect(json.message).toBe(message)
    else expect(json.message).toMatch(message)
    expect(setCookieFor(response, SESSION_COOKIE)).toBeUndefined()
    expect(await countRows(database.db, 'sessions')).toBe(sessions)
  })

  it('accepts the longest allowed name and names its team within limits', async () => {
    const name = 'N'.repeat(200)
    const response = await login(local, { name, email: uniqueEmail('long') })
    expect(response.status).toBe(200)
    const { rows } = await database.db.query<{ name: string }>(
      `select t.name from teams t join users u on u.team_id = t.id where u.name = $1`,
      [name],
    )
    expect(rows[0]?.name).toBe(`${'N'.repeat(193)}'s team`)
  })

  it('answers a body that is not JSON with 400', async () => {
    const response = await new Browser(local).request(
      '/api/public/auth/local/login',
      {
        method: 'POST',
        headers: {
          origin: 'http://localhost',
          'content-type': 'application/json',
        },
        body: '{"name":',
      },
    )
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      message: 'Request body must be JSON',
    })
  })

  it('sends OAuth sign-in to the local sign-in page', async () => {
    for (const provider of ['github', 'google']) {
      const response = await new Browser(local).get(
        `/api/public/auth/${provider}/login`,
      )
      expect(response.status).toBe(302)
      expect(response.headers.get('location')).toBe('/sign-in/local')
    }
  })

  it('says which sign-in methods exist', async () => {
    const response = await new Browser(local).get('/api/public/auth/providers')
    expect(await response.json()).toEqual({
      github: false,
      google: false,
      local: true,
    })
  })
})

describe('local login once a provider is configured', () => {
  it('is not found', async () => {
    const app = buildApp(database.db, github)
    const sessions = await countRows(database.db, 'sessions')
    const response = await login(app, { name: 'Ada', email: uniqueEmail() })
    expect(response.status).toBe(404)
    expect(await countRows(database.db, 'sessions')).toBe(sessions)
  })

  it('is back when LOCAL_LOGIN=true', async () => {
    const app = buildApp(database.db, { ...github, LOCAL_LOGIN: 'true' })
    const response = await login(app, { name: 'Ada', email: uniqueEmail() })
    expect(response.status).toBe(200)
  })

  it('is not found in hosted mode', async () => {
    const app = buildApp(database.db, {
      SLUICE_MODE: 'hosted',
      SLUICE_SECRET: 's'.repeat(32),
      PUBLIC_URL: 'http://localhost',
    })
    const response = await login(app, { name: 'Ada', email: uniqueEmail() })
    expect(response.status).toBe(404)
  })

  it('leaves an unconfigured provider a 404, not the local page', async () => {
    const app = buildApp(database.db, github)
    const response = await new Browser(app).get('/api/public/auth/google/login')
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({
      message: 'Sign-in with google is not configured',
    })
  })
})

describe('a burst of local sign-ins', () => {
  it('answers 429 with retry-after past the rate per client IP, making no user', async () => {
    let time = Date.now()
    const app = buildApp(
      database.db,
      { LOCAL_LOGINS_PER_MINUTE: '3' },
      { now: () => time },
    )
    for (let i = 0; i < 3; i += 1) {
      const response = await login(app, { name: 'Ada', email: uniqueEmail() })
      expect(response.status).toBe(200)
    }
    const users = await countRows(database.db, 'users')
    const limited = await login(app, { name: 'Ada', email: uniqueEmail() })
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('60')
    expect(await limited.json()).toEqual({
      message: 'Too many sign-ins from this address; please try again later.',
    })
    expect(setCookieFor(limited, SESSION_COOKIE)).toBeUndefined()
    expect(await countRows(database.db, 'users')).toBe(users)

    time += 60_000
    const later = await login(app, { name: 'Ada', email: uniqueEmail() })
    expect(later.status).toBe(200)
  })
})
