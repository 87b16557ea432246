// OAuth sign-in end to end against a fake GitHub and Google: state, binding cookie, PKCE,
// nonce, and what a first and a repeated sign-in leave in the database.
import { createHash, randomInt } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../src/server/auth/cookies.ts'
import { hashToken } from '../../src/server/auth/tokens.ts'
import { addMembership, createTeam } from '../../src/server/teams/teams.ts'
import { createUser } from '../../src/server/auth/users.ts'
import {
  Browser,
  buildApp,
  ORIGIN,
  uniqueEmail,
  type App,
} from '../support/app.ts'
import { setCookieFor } from '../support/cookie-jar.ts'
import { countRows, useControlPlaneDatabase } from '../support/database.ts'
import { startFakeOAuth, type FakeOAuth } from '../support/fake-oauth.ts'

type ProviderName = 'github' | 'google'
type Person = { subject: string; email: string; name: string }

const INVALID_STATE =
  'This sign-in link is invalid or has expired. Please sign in again.'

const database = useControlPlaneDatabase()
let fake: FakeOAuth
let app: App

beforeAll(async () => {
  fake = await startFakeOAuth()
  app = buildApp(database.db, fake.env)
})
afterAll(async () => {
  await fake.close()
})

function newPerson(): Person {
  return {
    subject: String(randomInt(1, 2 ** 47)),
    email: uniqueEmail('oauth'),
    name: 'Grace Hopper',
  }
}

/** Makes the fake provider accept a code for `person` (and, for Google, this nonce). */
function grant(provider: ProviderName, person: Person, nonce: string): string {
  if (provider === 'github')
    return fake.github.grant({
      id: Number(person.subject),
      login: `gh-${person.subject}`,
      name: person.name,
      emails: [
        { email: `old-${person.email}`, primary: false, verified: true },
        { email: person.email, primary: true, verified: true },
      ],
    })
  return fake.google.grant({
    sub: person.subject,
    email: person.email,
    name: person.name,
    nonce,
  })
}

/** GET /login: returns the provider URL Sluice redirected to, with its state and nonce. */
async function beginSignIn(browser: Browser, provider: ProviderName) {
  const response = await browser.get(`/api/public/auth/${provider}/login`)
  expect(response.status).toBe(302)
  const location = new URL(response.headers.get('location') ?? '')
  return {
    response,
    location,
    state: location.searchParams.get('state') ?? '',
    nonce: location.searchParams.get('nonce') ?? '',
  }
}

function callback(
  browser: Browser,
  provider: ProviderName,
  params: Record<string, string>,
  headers?: HeadersInit,
): Promise<Response> {
  const query = new URLSearchParams(params).toString()
  return browser.get(`/api/public/auth/${provider}/callback?${query}`, headers)
}

/** A whole sign-in in `browser`; returns the callback response and the session token. */
async function signIn(
  browser: Browser,
  provider: ProviderName,
  person: Person,
) {
  const { state, nonce } = await beginSignIn(browser, provider)
  const code = grant(provider, person, nonce)
  const response = await callback(browser, provider, { code, state })
  return { response, token: setCookieFor(response, SESSION_COOKIE)?.value }
}

async function currentUser(browser: Browser) {
  const response = await browser.get('/api/public/auth/user')
  return { status: response.status, body: (await response.json()) as unknown }
}

describe.each<ProviderName>(['github', 'google'])(
  'sign-in with %s',
  (provider) => {
    it('redirects a new user to /welcome, a returning one to /, with an HttpOnly, SameSite=Lax session cookie for the whole site', async () => {
      const browser = new Browser(app)
      const person = newPerson()
      const { response, token } = await signIn(browser, provider, person)

      expect(response.status).toBe(302)
      // Onboarding, once: only the sign-in that made the user goes there.
      expect(response.headers.get('location')).toBe('/welcome')
      const cookie = setCookieFor(response, SESSION_COOKIE)
      expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(cookie?.httpOnly).toBe(true)
      expect(cookie?.sameSite).toBe('lax')
      expect(cookie?.path).toBe('/')
      // Plain http: a Secure cookie would never come back.
      expect(cookie?.secure).toBe(false)
      // The binding cookie is spent.
      expect(setCookieFor(response, `sluice_oauth_${provider}`)?.maxAge).toBe(0)

      const me = await currentUser(browser)
      expect(me.status).toBe(200)
      expect(me.body).toEqual({
        id: expect.any(String),
        email: person.email,
        name: person.name,
      })
      // Only the hash of the token is stored.
      const { rows } = await database.db.query<{ id: string }>(
        'select s.id from sessions s join identities i using (user_id) where i.subject = $1',
        [person.subject],
      )
      expect(rows).toEqual([{ id: hashToken(token ?? '') }])

      const again = await signIn(new Browser(app), provider, person)
      expect(again.response.headers.get('location')).toBe('/')
    })

    it('creates the user with a personal team and an owner membership on first sign-in', async () => {
      const person = newPerson()
      const users = await countRows(database.db, 'users')
      const { response } = await signIn(new Browser(app), provider, person)
      expect(response.headers.get('location')).toBe('/welcome')
      expect(await countRows(database.db, 'users')).toBe(users + 1)

      const { rows } = await database.db.query(
        `select u.email, u.name, t.name as team, m.role, i.email as identity_email
         from identities i
         join users u on u.id = i.user_id
         join teams t on t.id = u.team_id
         join memberships m on m.user_id = u.id
        where i.provider = $1 and i.subject = $2`,
        [provider, person.subject],
      )
      expect(rows).toEqual([
        {
          email: person.email,
          name: person.name,
          team: `${person.name}'s team`,
          role: 'owner',
          identity_email: person.email,
        },
      ])
    })

    it('finds the same user on a second sign-in and issues a new token', async () => {
      const person = newPerson()
      const first = new Browser(app)
      const second = new Browser(app)
      const a = await signIn(first, provider, person)
      const users = await countRows(database.db, 'users')
      const teams = await countRows(database.db, 'teams')
      const b = await signIn(second, provider, person)

      expect(a.token).toBeDefined()
      expect(b.token).toBeDefined()
      expect(b.token).not.toBe(a.token)
      expect(await countRows(database.db, 'users')).toBe(users)
      expect(await countRows(database.db, 'teams')).toBe(teams)
      const one = await currentUser(first)
      const two = await currentUser(second)
      expect(two.status).toBe(200)
      expect(two.body).toEqual(one.body)
    })

    it('replaces the session of the browser that signs in again', async () => {
      const person = newPerson()
      const browser = new Browser(app)
      const first = await signIn(browser, provider, person)
      const second = await signIn(browser, provider, person)
      expect(second.token).not.toBe(first.token)

      const stale = await app.request(`${ORIGIN}/api/public/auth/user`, {
        headers: { cookie: `${SESSION_COOKIE}=${first.token}` },
      })
      expect(stale.status).toBe(401)
      expect((await currentUser(browser)).status).toBe(200)
    })

    describe('refuses a callback whose state is not this browser’s live sign-in', () => {
      /** Asserts a 400 that created no session and never reached the provider. */
      async function expectRefused(
        attempt: () => Promise<{ response: Response; code: string }>,
      ) {
        const sessions = await countRows(database.db, 'sessions')
        const { response, code } = await attempt()
        expect(response.status).toBe(400)
        expect(await response.json()).toEqual({ message: INVALID_STATE })
        expect(setCookieFor(response, SESSION_COOKIE)).toBeUndefined()
        expect(await countRows(database.db, 'sessions')).toBe(sessions)
        expect(fake.tokenRequests.some((r) => r.code === code)).toBe(false)
      }

      it('a missing state', async () => {
        await expectRefused(async () => {
          const browser = new Browser(app)
          const { nonce } = await beginSignIn(browser, provider)
          const code = grant(provider, newPerson(), nonce)
          return { response: await callback(browser, provider, { code }), code }
        })
      })

      it('a forged state', async () => {
        await expectRefused(async () => {
          const browser = new Browser(app)
          const { state, nonce } = await beginSignIn(browser, provider)
          const code = grant(provider, newPerson(), nonce)
          const forged = `${state.slice(0, -2)}${state.endsWith('AA') ? 'BB' : 'AA'}`
          return {
            response: await callback(browser, provider, {
              code,
              state: forged,
            }),
            code,
          }
        })
      })

      it('a replayed state, even with its binding cookie', async () => {
        const browser = new Browser(app)
        const person = newPerson()
        const { state, nonce } = await beginSignIn(browser, provider)
        const binding = browser.jar.get(`sluice_oauth_${provider}`) ?? ''
        const first = await callback(browser, provider, {
          code: grant(provider, person, nonce),
          state,
        })
        expect(first.headers.get('location')).toBe('/welcome')

        await expectRefused(async () => {
          const code = grant(provider, person, nonce)
          const response = await callback(
            new Browser(app),
            provider,
            { code, state },
            { cookie: `sluice_oauth_${provider}=${binding}` },
          )
          return { response, code }
        })
      })

      it('a state used without its binding cookie', async () => {
        await expectRefused(async () => {
          const { state, nonce } = await beginSignIn(new Browser(app), provider)
          const code = grant(provider, newPerson(), nonce)
          const response = await callback(new Browser(app), provider, {
            code,
            state,
          })
          return { response, code }
        })
      })

      it('a state once tried without its cookie, even when the cookie follows', async () => {
        const browser = new Browser(app)
        const { state, nonce } = await beginSignIn(browser, provider)
        const withoutCookie = await callback(new Browser(app), provider, {
          code: grant(provider, newPerson(), nonce),
          state,
        })
        expect(withoutCookie.status).toBe(400)
        await expectRefused(async () => {
          const code = grant(provider, newPerson(), nonce)
          return {
            response: await callback(browser, provider, { code, state }),
            code,
          }
        })
      })

      it('a state bound to another browser (login CSRF)', async () => {
        await expectRefused(async () => {
          const attacker = await beginSignIn(new Browser(app), provider)
          const victim = new Browser(app)
          await beginSignIn(victim, provider)
          const code = grant(provider, newPerson(), attacker.nonce)
          const response = await callback(victim, provider, {
            code,
            state: attacker.state,
          })
          return { response, code }
        })
      })

      it('an expired state', async () => {
        await expectRefused(async () => {
          const browser = new Browser(app)
          const { state, nonce } = await beginSignIn(browser, provider)
          await database.db.query(
            `update oauth_states set expires_at = now() - interval '1 second' where id = $1`,
            [hashToken(state)],
          )
          const code = grant(provider, newPerson(), nonce)
          return {
            response: await callback(browser, provider, { code, state }),
            code,
          }
        })
      })

      it('a state started for the other provider', async () => {
        const other: ProviderName = provider === 'github' ? 'google' : 'github'
        await expectRefused(async () => {
          const browser = new Browser(app)
          const { state, nonce } = await beginSignIn(browser, other)
          const binding = browser.jar.get(`sluice_oauth_${other}`) ?? ''
          const code = grant(provider, newPerson(), nonce)
          const response = await callback(
            browser,
            provider,
            { code, state },
            { cookie: `sluice_oauth_${provider}=${binding}` },
          )
          return { response, code }
        })
      })
    })

    it('sends the user home with the error when they deny access at the provider', async () => {
      const sessions = await countRows(database.db, 'sessions')
      const browser = new Browser(app)
      const { state } = await beginSignIn(browser, provider)
      const response = await callback(browser, provider, {
        error: 'access_denied',
        state,
      })
      expect(response.status).toBe(302)
      expect(response.headers.get('location')).toBe(
        '/?sign_in_error=access_denied',
      )
      expect(await countRows(database.db, 'sessions')).toBe(sessions)
    })

    it('answers an unknown code with provider_failed and no session', async () => {
      const sessions = await countRows(database.db, 'sessions')
      const browser = new Browser(app)
      const { state } = await beginSignIn(browser, provider)
      const response = await callback(browser, provider, {
        code: 'not-granted',
        state,
      })
      expect(response.headers.get('location')).toBe(
        '/?sign_in_error=provider_failed',
      )
      expect(setCookieFor(response, SESSION_COOKIE)).toBeUndefined()
      expect(await countRows(database.db, 'sessions')).toBe(sessions)
    })
  },
)

describe('GitHub specifics', () => {
  it('asks for the user and email scopes and sends its client credentials, without PKCE', async () => {
    const browser = new Browser(app)
    const { location, state, response } = await beginSignIn(browser, 'github')
    expect(`${location.origin}${location.pathname}`).toBe(
      fake.env.GITHUB_AUTHORIZE_URL,
    )
    expect(Object.fromEntries(location.searchParams)).toEqual({
      response_type: 'code',
      client_id: fake.env.GITHUB_CLIENT_ID,
      redirect_uri: `${ORIGIN}/api/public/auth/github/callback`,
      state,
      scope: 'read:user user:email',
    })
    const binding = setCookieFor(response, 'sluice_oauth_github')
    expect(binding?.httpOnly).toBe(true)
    expect(binding?.sameSite).toBe('lax')
    expect(binding?.path).toBe('/api/public/auth')

    const code = grant('github', newPerson(), '')
    await callback(browser, 'github', { code, state })
    expect(fake.tokenRequests.find((r) => r.code === code)).toEqual({
      provider: 'github',
      grantType: 'authorization_code',
      code,
      codeVerifier: null,
      redirectUri: `${ORIGIN}/api/public/auth/github/callback`,
      clientId: fake.env.GITHUB_CLIENT_ID,
      clientSecret: fake.env.GITHUB_CLIENT_SECRET,
    })
  })

  it('falls back to the login when the account has no name', async () => {
    const browser = new Browser(app)
    const { state } = await beginSignIn(browser, 'github')
    const id = randomInt(1, 2 ** 47)
    const email = uniqueEmail('noname')
    const code = fake.github.grant({
      id,
      login: `octo-${id}`,
      name: null,
      emails: [{ email, primary: true, verified: true }],
    })
    await callback(browser, 'github', { code, state })
    expect((await currentUser(browser)).body).toMatchObject({
      email,
      name: `octo-${id}`,
    })
  })

  it('refuses an account without a verified primary email', async () => {
    const sessions = await countRows(database.db, 'sessions')
    const browser = new Browser(app)
    const { state } = await beginSignIn(browser, 'github')
    const code = fake.github.grant({
      id: randomInt(1, 2 ** 47),
      login: 'unverified',
      name: 'Unverified',
      emails: [{ email: uniqueEmail(), primary: true, verified: false }],
    })
    const response = await callback(browser, 'github', { code, state })
    expect(response.headers.get('location')).toBe(
      '/?sign_in_error=provider_failed',
    )
    expect(await countRows(database.db, 'sessions')).toBe(sessions)
  })
})

describe('Google specifics', () => {
  it('sends a PKCE verifier matching the S256 challenge, and a nonce', async () => {
    const browser = new Browser(app)
    const { location, state, nonce } = await beginSignIn(browser, 'google')
    expect(`${location.origin}${location.pathname}`).toBe(
      fake.env.GOOGLE_AUTHORIZE_URL,
    )
    const params = Object.fromEntries(location.searchParams)
    expect(params).toEqual({
      response_type: 'code',
      client_id: fake.env.GOOGLE_CLIENT_ID,
      redirect_uri: `${ORIGIN}/api/public/auth/google/callback`,
      state,
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      scope: 'openid email profile',
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    })

    const code = grant('google', newPerson(), nonce)
    const response = await callback(browser, 'google', { code, state })
    expect(response.headers.get('location')).toBe('/welcome')

    const sent = fake.tokenRequests.find((r) => r.code === code)
    expect(sent).toMatchObject({
      grantType: 'authorization_code',
      redirectUri: `${ORIGIN}/api/public/auth/google/callback`,
      clientId: fake.env.GOOGLE_CLIENT_ID,
      clientSecret: fake.env.GOOGLE_CLIENT_SECRET,
    })
    expect(sent?.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/)
    const challenge = createHash('sha256')
      .update(sent?.codeVerifier ?? '')
      .digest('base64url')
    expect(challenge).toBe(params.code_challenge)
  })

  it('uses a new verifier and nonce for every sign-in', async () => {
    const a = await beginSignIn(new Browser(app), 'google')
    const b = await beginSignIn(new Browser(app), 'google')
    expect(b.nonce).not.toBe(a.nonce)
    expect(b.location.searchParams.get('code_challenge')).not.toBe(
      a.location.searchParams.get('code_challenge'),
    )
  })

  it.each<[string, (nonce: string) => Record<string, unknown>]>([
    ['a wrong nonce', () => ({ nonce: 'someone-elses-nonce' })],
    ['no nonce', () => ({ nonce: undefined })],
    ['another audience', (nonce) => ({ nonce, aud: 'other-client' })],
    ['another issuer', (nonce) => ({ nonce, iss: 'https://evil.example.com' })],
    [
      'an expired token',
      (nonce) => ({ nonce, exp: Math.floor(Date.now() / 1000) - 60 }),
    ],
    ['an unverified email', (nonce) => ({ nonce, email_verified: false })],
  ])('creates no session for an ID token with %s', async (_case, claims) => {
    const sessions = await countRows(database.db, 'sessions')
    const users = await countRows(database.db, 'users')
    const browser = new Browser(app)
    const { state, nonce } = await beginSignIn(browser, 'google')
    const code = fake.google.grant({
      sub: String(randomInt(1, 2 ** 47)),
      email: uniqueEmail('google'),
      name: 'Mallory',
      ...(claims(nonce) as { nonce: string }),
    })
    const response = await callback(browser, 'google', { code, state })

    // The code was redeemed: the refusal comes from checking the ID token.
    expect(fake.tokenRequests.some((r) => r.code === code)).toBe(true)
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(
      '/?sign_in_error=provider_failed',
    )
    expect(setCookieFor(response, SESSION_COOKIE)).toBeUndefined()
    expect(await countRows(database.db, 'sessions')).toBe(sessions)
    expect(await countRows(database.db, 'users')).toBe(users)
    expect((await currentUser(browser)).status).toBe(401)
  })
})

describe('identities', () => {
  async function userId(browser: Browser): Promise<string> {
    const me = await currentUser(browser)
    expect(me.status).toBe(200)
    return (me.body as { id: string }).id
  }

  it("never matches users by email: Google with a GitHub user's email is another user", async () => {
    const person = newPerson()
    const viaGitHub = new Browser(app)
    await signIn(viaGitHub, 'github', person)
    const viaGoogle = new Browser(app)
    await signIn(viaGoogle, 'google', {
      ...person,
      subject: `g-${person.subject}`,
    })
    expect(await userId(viaGoogle)).not.toBe(await userId(viaGitHub))
  })

  it('keeps providers apart: one subject at GitHub and at Google is two users', async () => {
    const person = newPerson()
    const viaGitHub = new Browser(app)
    await signIn(viaGitHub, 'github', person)
    const viaGoogle = new Browser(app)
    await signIn(viaGoogle, 'google', { ...person, email: uniqueEmail() })
    expect(await userId(viaGoogle)).not.toBe(await userId(viaGitHub))
  })

  it('finds the user by subject when the provider reports a new email', async () => {
    const person = newPerson()
    const first = new Browser(app)
    await signIn(first, 'github', person)
    const moved = { ...person, email: uniqueEmail('moved') }
    const second = new Browser(app)
    await signIn(second, 'github', moved)
    expect(await userId(second)).toBe(await userId(first))
    const { rows } = await database.db.query(
      `select email from identities where provider = 'github' and subject = $1`,
      [person.subject],
    )
    expect(rows).toEqual([{ email: moved.email }])
  })
})

describe('invited users (made by the admin tool, no identity yet)', () => {
  async function invite(email: string, teamName?: string) {
    const id = await createUser(database.db, { name: 'Ada Invited', email })
    if (!teamName) return { id, teamId: null }
    const team = await createTeam(database.db, teamName)
    await addMembership(database.db, team.id, id)
    return { id, teamId: team.id }
  }

  async function teamsOf(userId: string): Promise<string[]> {
    const { rows } = await database.db.query<{ team_id: string }>(
      'select team_id from memberships where user_id = $1 order by created_at',
      [userId],
    )
    return rows.map((r) => r.team_id)
  }

  it.each<ProviderName>(['github', 'google'])(
    "are claimed by the first %s sign-in with the user's verified email, in any case, as a first sign-in",
    async (provider) => {
      const email = uniqueEmail('invited')
      const invited = await invite(email, 'Invited team')
      const browser = new Browser(app)
      const person = { ...newPerson(), email: email.toUpperCase() }
      const { response } = await signIn(browser, provider, person)
      expect(response.headers.get('location')).toBe('/welcome')
      const me = await currentUser(browser)
      expect(me.body).toMatchObject({ id: invited.id, name: 'Ada Invited' })
      // The team the admin put them in is theirs; no personal team is added beside it.
      expect(await teamsOf(invited.id)).toEqual([invited.teamId])

      // Once: the same person again is the same user, a returning one.
      const again = await signIn(new Browser(app), provider, person)
      expect(again.response.headers.get('location')).toBe('/')
    },
  )

  it('are claimed once: a second provider with the same email is another user', async () => {
    const email = uniqueEmail('invited')
    const invited = await invite(email)
    const viaGitHub = new Browser(app)
    await signIn(viaGitHub, 'github', { ...newPerson(), email })
    const viaGoogle = new Browser(app)
    await signIn(viaGoogle, 'google', { ...newPerson(), email })
    const github = (await currentUser(viaGitHub)).body as { id: string }
    const google = (await currentUser(viaGoogle)).body as { id: string }
    expect(github.id).toBe(invited.id)
    expect(google.id).not.toBe(invited.id)
  })

  it('get a personal team when invited into none', async () => {
    const email = uniqueEmail('invited')
    const invited = await invite(email)
    await signIn(new Browser(app), 'google', { ...newPerson(), email })
    const teams = await teamsOf(invited.id)
    expect(teams).toHaveLength(1)
    const { rows } = await database.db.query<{ team_id: string }>(
      'select team_id from users where id = $1',
      [invited.id],
    )
    expect(rows[0]?.team_id).toBe(teams[0])
  })
})
