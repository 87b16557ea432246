// Pending sign-ins are bounded: anyone may start one (GET /login writes a state row, no account
// needed), so expired states go as new ones come, and past the cap the oldest are dropped (a
// flood then costs the flooder's own states first, not a real user's newer one).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OAUTH_STATES_MAX } from '../../src/server/platform/limits.ts'
import { Browser, buildApp, uniqueEmail, type App } from '../support/app.ts'
import { countRows, useControlPlaneDatabase } from '../support/database.ts'
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

/** An anonymous GET /login, as a flood sends it: answers the state it was given. */
async function startSignIn(browser = new Browser(app)): Promise<string> {
  const response = await browser.get('/api/public/auth/github/login')
  expect(response.status).toBe(302)
  const location = new URL(response.headers.get('location') ?? '')
  return location.searchParams.get('state') ?? ''
}

async function expiredStates(): Promise<number> {
  const { rows } = await database.db.query<{ n: number }>(
    'select count(*)::int as n from oauth_states where expires_at <= now()',
  )
  return rows[0]?.n ?? 0
}

describe('pending sign-ins', () => {
  it('lose their expired states when a sign-in starts', async () => {
    for (let i = 0; i < 3; i++) await startSignIn()
    await database.db.query(
      `update oauth_states set expires_at = now() - interval '1 second'`,
    )
    await startSignIn()
    expect(await expiredStates()).toBe(0)
    expect(await countRows(database.db, 'oauth_states')).toBe(1)
  })

  it('are capped, the oldest dropped: a sign-in started after a flood completes', async () => {
    const flood: string[] = []
    for (let i = 0; i < OAUTH_STATES_MAX + 20; i++)
      flood.push(await startSignIn())
    expect(await countRows(database.db, 'oauth_states')).toBe(OAUTH_STATES_MAX)

    const browser = new Browser(app)
    const state = await startSignIn(browser)
    expect(await countRows(database.db, 'oauth_states')).toBe(OAUTH_STATES_MAX)
    const code = fake.github.grant({
      id: 424242,
      login: 'after-the-flood',
      name: 'Real User',
      emails: [{ email: uniqueEmail('flood'), primary: true, verified: true }],
    })
    const query = new URLSearchParams({ code, state }).toString()
    const callback = await browser.get(
      `/api/public/auth/github/callback?${query}`,
    )
    expect(callback.status).toBe(302)
    expect(callback.headers.get('location')).toBe('/welcome')
    // The flood's first states are the ones gone.
    const { rows } = await database.db.query<{ n: number }>(
      'select count(*)::int as n from oauth_states where id = $1',
      [flood[0]],
    )
    expect(rows[0]?.n).toBe(0)
  }, 60_000)
})
