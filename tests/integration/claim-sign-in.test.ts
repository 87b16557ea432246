// The claim page's sign-in links (`/api/public/auth/{provider}/login?claim=<claimId>`): the claim
// rides in the OAuth state and brings the user back to /claim?uuid=, a new user by way of
// /welcome?claim=; local mode carries it to its sign-in page; anything but a uuid is dropped.
import { randomInt, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Browser, buildApp, uniqueEmail, type App } from '../support/app.ts'
import { useControlPlaneDatabase } from '../support/database.ts'
import { startFakeOAuth, type FakeOAuth } from '../support/fake-oauth.ts'

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

const person = () => {
  const id = randomInt(1, 2 ** 47)
  return {
    id,
    login: `gh-${id}`,
    name: 'Grace Hopper',
    emails: [{ email: uniqueEmail('claim'), primary: true, verified: true }],
  }
}

/** A whole GitHub sign-in from `login` (its query included); the callback's redirect. */
async function signIn(
  browser: Browser,
  query: string,
  who: ReturnType<typeof person>,
) {
  const login = await browser.get(`/api/public/auth/github/login${query}`)
  expect(login.status).toBe(302)
  const location = new URL(login.headers.get('location') ?? '')
  // The provider never sees the claim.
  expect(location.toString()).not.toContain('claim')
  const state = location.searchParams.get('state') ?? ''
  const code = fake.github.grant(who)
  const callback = await browser.get(
    `/api/public/auth/github/callback?code=${code}&state=${state}`,
  )
  expect(callback.status).toBe(302)
  return callback.headers.get('location')
}

describe('signing in from the claim page', () => {
  it('brings a new user to /welcome carrying the claim, a returning one to the claim page', async () => {
    const claimId = randomUUID()
    const who = person()
    expect(await signIn(new Browser(app), `?claim=${claimId}`, who)).toBe(
      `/welcome?claim=${claimId}`,
    )
    expect(await signIn(new Browser(app), `?claim=${claimId}`, who)).toBe(
      `/claim?uuid=${claimId}`,
    )
    // Without a claim, home as before.
    expect(await signIn(new Browser(app), '', who)).toBe('/')
  })

  it('drops a claim that is not a uuid: it can never name a redirect', async () => {
    const who = person()
    await signIn(new Browser(app), '', who)
    for (const claim of ['//evil.example', 'x', '../../api'])
      expect(
        await signIn(
          new Browser(app),
          `?claim=${encodeURIComponent(claim)}`,
          who,
        ),
      ).toBe('/')
  })

  it('in local mode, goes to the local sign-in page with the claim', async () => {
    const local = buildApp(database.db)
    const claimId = randomUUID()
    for (const provider of ['github', 'google']) {
      const login = await new Browser(local).get(
        `/api/public/auth/${provider}/login?claim=${claimId}`,
      )
      expect(login.status).toBe(302)
      expect(login.headers.get('location')).toBe(
        `/sign-in/local?claim=${claimId}`,
      )
    }
    const bare = await new Browser(local).get(
      '/api/public/auth/github/login?claim=nope',
    )
    expect(bare.headers.get('location')).toBe('/sign-in/local')
  })
})
