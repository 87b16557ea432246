// Sessions end: by logout, by idling past SESSION_IDLE_MS, and at expires_at.
import { beforeAll, describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../src/server/auth/cookies.ts'
import {
  SESSION_ABSOLUTE_MS,
  SESSION_IDLE_MS,
} from '../../src/server/auth/sessions.ts'
import { hashToken } from '../../src/server/auth/tokens.ts'
import { buildApp, ORIGIN, signInLocally, type App } from '../support/app.ts'
import { setCookieFor } from '../support/cookie-jar.ts'
import { useControlPlaneDatabase } from '../support/database.ts'

const database = useControlPlaneDatabase()
let app: App
beforeAll(() => {
  app = buildApp(database.db)
})

/** A fresh signed-in session: its token and a way to ask /user with exactly that token. */
async function session() {
  const { browser } = await signInLocally(app)
  const token = browser.jar.get(SESSION_COOKIE) ?? ''
  const id = hashToken(token)
  const user = () =>
    app.request(`${ORIGIN}/api/public/auth/user`, {
      headers: { cookie: `${SESSION_COOKIE}=${token}` },
    })
  const row = async () =>
    (
      await database.db.query<{ last_seen_ms: number; expires_in_ms: number }>(
        `select (extract(epoch from now() - last_seen_at) * 1000)::float8 as last_seen_ms,
                (extract(epoch from expires_at - now()) * 1000)::float8 as expires_in_ms
           from sessions where id = $1`,
        [id],
      )
    ).rows[0]
  return { browser, token, id, user, row }
}

async function ageLastSeen(id: string, ms: number) {
  await database.db.query(
    `update sessions set last_seen_at = now() - $2 * interval '1 millisecond' where id = $1`,
    [id, ms],
  )
}

describe('sessions', () => {
  it('lasts SESSION_ABSOLUTE_MS from sign-in, matching the cookie', async () => {
    const s = await session()
    expect((await s.user()).status).toBe(200)
    const row = await s.row()
    expect(row?.expires_in_ms).toBeGreaterThan(SESSION_ABSOLUTE_MS - 60_000)
    expect(row?.expires_in_ms).toBeLessThanOrEqual(SESSION_ABSOLUTE_MS)
  })

  it('is refused without a cookie or with an unknown token', async () => {
    const none = await app.request(`${ORIGIN}/api/public/auth/user`)
    expect(none.status).toBe(401)
    expect(await none.json()).toEqual({ message: 'Not signed in' })
    const unknown = await app.request(`${ORIGIN}/api/public/auth/user`, {
      headers: { cookie: `${SESSION_COOKIE}=${'x'.repeat(43)}` },
    })
    expect(unknown.status).toBe(401)
  })

  it('is refused by its hash: the stored id is not a token', async () => {
    const s = await session()
    const response = await app.request(`${ORIGIN}/api/public/auth/user`, {
      headers: { cookie: `${SESSION_COOKIE}=${s.id}` },
    })
    expect(response.status).toBe(401)
  })

  it('ends at logout: the old cookie gets 401 and the row is gone', async () => {
    const s = await session()
    const response = await s.browser.postJson('/api/public/auth/logout')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ ok: true })
    const cleared = setCookieFor(response, SESSION_COOKIE)
    expect(cleared?.value).toBe('')
    expect(cleared?.maxAge).toBe(0)
    expect(cleared?.path).toBe('/')
    // Whatever this browser's HTTP cache kept of the session's answers goes with it
    // (shape answers were stored for a week before they became no-store).
    expect(response.headers.get('clear-site-data')).toBe('"cache"')

    expect((await s.user()).status).toBe(401)
    expect(await s.row()).toBeUndefined()
  })

  it('logs out only the browser that asks', async () => {
    const a = await signInLocally(app, 'Same Person', 'same-person@example.com')
    const b = await signInLocally(app, 'Same Person', 'same-person@example.com')
    await a.browser.postJson('/api/public/auth/logout')
    expect((await a.browser.get('/api/public/auth/user')).status).toBe(401)
    expect((await b.browser.get('/api/public/auth/user')).status).toBe(200)
  })

  it('ends after SESSION_IDLE_MS without use', async () => {
    const s = await session()
    await ageLastSeen(s.id, SESSION_IDLE_MS + 1000)
    expect((await s.user()).status).toBe(401)
    expect(await s.row()).toBeUndefined()
  })

  it('stays alive when used within SESSION_IDLE_MS, and the use is recorded', async () => {
    const s = await session()
    await ageLastSeen(s.id, SESSION_IDLE_MS - 60_000)
    expect((await s.user()).status).toBe(200)
    expect((await s.row())?.last_seen_ms).toBeLessThan(60_000)
  })

  it('ends at expires_at however recently it was used', async () => {
    const s = await session()
    await database.db.query(
      `update sessions set expires_at = now() - interval '1 second', last_seen_at = now()
        where id = $1`,
      [s.id],
    )
    expect((await s.user()).status).toBe(401)
    expect(await s.row()).toBeUndefined()
  })

  it('ends for the API too', async () => {
    const s = await session()
    expect((await s.browser.get('/api/v1/users/me')).status).toBe(200)
    await ageLastSeen(s.id, SESSION_IDLE_MS + 1000)
    expect((await s.browser.get('/api/v1/users/me')).status).toBe(401)
  })
})
