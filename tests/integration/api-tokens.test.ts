// Team API tokens: a team's members make, list and revoke them; the token is answered once and
// stored only as a hash; a revoked or expired token answers 401; every use is audited and
// last_used_at written at most once a minute; a token has its own rate; no log line or error
// carries a token.
import { createHash } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { apiTokensFullMessage } from '../../src/server/api-tokens/routes.ts'
import {
  API_TOKEN_NAME_MAX_LENGTH,
  API_TOKENS_MAX_PER_TEAM,
  apiTokenPath,
  apiTokensPath,
} from '../../src/shared/api-tokens.ts'
import { pruneApiTokenUses } from '../../src/server/api-tokens/api-tokens.ts'
import { Browser, type App } from '../support/app.ts'
import { asMember, newToken, withToken } from '../support/api-tokens.ts'
import { useSourcesApi } from '../support/sources-api.ts'

const api = useSourcesApi()
let app: App
beforeAll(() => {
  app = api.app
})

/** A signed-in member of a personal team; every token it makes is checked against the logs. */
async function member() {
  const signed = await api.signIn(app)
  const make = async (body?: Record<string, unknown>) => {
    const made = await newToken(signed.browser, signed.teamId, body)
    api.passwords.add(made.token)
    return made
  }
  return { ...signed, make }
}

const list = (browser: Awaited<ReturnType<typeof member>>) =>
  asMember(browser.browser, 'GET', apiTokensPath(browser.teamId))

async function tokenRow(id: string) {
  const { rows } = await api.db.query<{
    token_hash: string
    last_used_at: Date | null
    revoked_at: Date | null
  }>('select * from api_tokens where id = $1', [id])
  return rows[0]
}

describe('making, listing and revoking', () => {
  it('answers the token once, stores only its hash, and lists it without the token', async () => {
    const a = await member()
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString()
    const made = await asMember(a.browser, 'POST', apiTokensPath(a.teamId), {
      name: 'deploy bot',
      expires_at: expiresAt,
    })
    expect(made.status).toBe(201)
    const { id, name, token } = made.body as Record<string, string>
    api.passwords.add(token!)
    expect(Object.keys(made.body as object).sort()).toEqual([
      'id',
      'name',
      'token',
    ])
    expect(name).toBe('deploy bot')
    expect(token).toMatch(/^sluice_[A-Za-z0-9_-]{43}$/)
    const row = await tokenRow(id!)
    expect(row?.token_hash).toBe(
      createHash('sha256').update(token!).digest('hex'),
    )

    const listed = await list(a)
    expect(listed.status).toBe(200)
    expect(listed.body).toEqual([
      {
        id,
        name: 'deploy bot',
        created_at: expect.any(String),
        last_used_at: null,
        expires_at: expect.any(String),
      },
    ])
    const [only] = listed.body as { expires_at: string }[]
    expect(Date.parse(only!.expires_at)).toBe(Date.parse(expiresAt))
    expect(JSON.stringify(listed.body)).not.toContain(token)
    expect(JSON.stringify(listed.body)).not.toContain(row?.token_hash)
  })

  it('refuses a bad body with 400 naming the field', async () => {
    const a = await member()
    const path = apiTokensPath(a.teamId)
    const cases: [unknown, string][] = [
      [{}, 'name: name is required'],
      [{ name: '   ' }, 'name: name is required'],
      [
        { name: 'x'.repeat(API_TOKEN_NAME_MAX_LENGTH + 1) },
        `name: name must be at most ${API_TOKEN_NAME_MAX_LENGTH} characters`,
      ],
      [
        { name: 'ci', expires_at: '2001-01-01T00:00:00Z' },
        'expires_at: expires_at must be in the future',
      ],
      [
        { name: 'ci', expires_at: 'next week' },
        'expires_at: expires_at must be an ISO date or date-time',
      ],
      [{ name: 'ci', scope: 'admin' }, expect.stringContaining('scope')],
    ]
    for (const [body, message] of cases) {
      const refused = await asMember(a.browser, 'POST', path, body)
      expect(refused.status, JSON.stringify(body)).toBe(400)
      expect((refused.body as { message: string }).message).toEqual(message)
    }
    expect((await list(a)).body).toEqual([])
  })

  it('holds at most API_TOKENS_MAX_PER_TEAM live tokens: 409 past it, until one is revoked', async () => {
    const a = await member()
    const made: string[] = []
    for (let i = 0; i < API_TOKENS_MAX_PER_TEAM; i++)
      made.push((await a.make({ name: `t${i}` })).id)
    const path = apiTokensPath(a.teamId)
    expect(
      await asMember(a.browser, 'POST', path, { name: 'one more' }),
    ).toMatchObject({
      status: 409,
      body: { message: apiTokensFullMessage(API_TOKENS_MAX_PER_TEAM) },
    })
    await asMember(a.browser, 'DELETE', apiTokenPath(a.teamId, made[0]!))
    expect(
      (await asMember(a.browser, 'POST', path, { name: 'one more' })).status,
    ).toBe(201)
  })

  it("answers 404 for another team's tokens, as for a missing team", async () => {
    const a = await member()
    const b = await member()
    const own = await b.make()
    const notFound = { message: 'Team not found' }
    for (const [method, path, body] of [
      ['GET', apiTokensPath(b.teamId)],
      ['POST', apiTokensPath(b.teamId), { name: 'x' }],
      ['DELETE', apiTokenPath(b.teamId, own.id)],
    ] as const) {
      const refused = await asMember(a.browser, method, path, body)
      expect(refused).toMatchObject({ status: 404, body: notFound })
    }
    // A's own team does not reach B's token either.
    const crossed = await asMember(
      a.browser,
      'DELETE',
      apiTokenPath(a.teamId, own.id),
    )
    expect(crossed).toMatchObject({
      status: 404,
      body: { message: 'API token not found' },
    })
    expect(
      (await withToken(app, own.token, 'GET', '/api/v1/teams')).status,
    ).toBe(200)
  })

  it('needs a session, and its writes the same-origin rule', async () => {
    const a = await member()
    const signedOut = await withToken(app, '', 'GET', apiTokensPath(a.teamId))
    expect(signedOut.status).toBe(401)
    const forged = await a.browser.request(apiTokensPath(a.teamId), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'forged' }),
    })
    expect(forged.status).toBe(403)
    expect((await list(a)).body).toEqual([])
  })

  it('revokes: the token answers 401 from then on and leaves the list', async () => {
    const a = await member()
    const { id, token } = await a.make()
    expect((await withToken(app, token, 'GET', '/api/v1/sources')).status).toBe(
      200,
    )
    const revoked = await asMember(
      a.browser,
      'DELETE',
      apiTokenPath(a.teamId, id),
    )
    expect(revoked).toMatchObject({ status: 200, body: { id } })
    expect(await withToken(app, token, 'GET', '/api/v1/sources')).toMatchObject(
      { status: 401, body: { message: 'Invalid or expired API token' } },
    )
    expect((await list(a)).body).toEqual([])
    const again = await asMember(
      a.browser,
      'DELETE',
      apiTokenPath(a.teamId, id),
    )
    expect(again.status).toBe(404)
  })

  it('answers 401 for an expired, unknown or malformed token, never echoing it', async () => {
    const a = await member()
    const { id, token } = await a.make({
      name: 'short-lived',
      expires_at: new Date(Date.now() + 60_000).toISOString(),
    })
    expect((await withToken(app, token, 'GET', '/api/v1/sources')).status).toBe(
      200,
    )
    await api.db.query(
      `update api_tokens set created_at = now() - interval '2 days',
              expires_at = now() - interval '1 second' where id = $1`,
      [id],
    )
    for (const given of [token, `${token}x`, 'sluice_nope', 'not-a-token']) {
      const refused = await withToken(app, given, 'GET', '/api/v1/sources')
      expect(refused.status).toBe(401)
      expect(JSON.stringify(refused.body)).not.toContain(given)
    }
    // Another scheme is no token either, and never falls back to the session cookie.
    const basic = await a.browser.request('/api/v1/sources', {
      headers: { authorization: 'Basic abc' },
    })
    expect(basic.status).toBe(401)
  })
})

describe('use', () => {
  it('is audited with method, path and status, refusals too', async () => {
    const a = await member()
    const { id, token } = await a.make()
    await withToken(app, token, 'GET', '/api/v1/sources')
    await withToken(app, token, 'GET', '/api/v1/users/me')
    await withToken(app, token, 'DELETE', `/api/v1/sources/${id}`)
    const { rows } = await api.db.query(
      `select team_id, method, path, status from api_token_uses
        where token_id = $1 order by id`,
      [id],
    )
    expect(rows).toEqual([
      {
        team_id: a.teamId,
        method: 'GET',
        path: '/api/v1/sources',
        status: 200,
      },
      {
        team_id: a.teamId,
        method: 'GET',
        path: '/api/v1/users/me',
        status: 403,
      },
      {
        team_id: a.teamId,
        method: 'DELETE',
        path: `/api/v1/sources/${id}`,
        status: 404,
      },
    ])
  })

  it("reads back from the team's audit, for its members only", async () => {
    const a = await member()
    const b = await member()
    const { id, token } = await a.make({ name: 'reader' })
    await withToken(app, token, 'GET', '/api/v1/sources')
    await withToken(app, token, 'PATCH', '/api/v1/sources/x', {})
    const uses = `${apiTokensPath(a.teamId)}/uses`
    const read = await asMember(a.browser, 'GET', `${uses}?limit=1`)
    expect(read).toMatchObject({
      status: 200,
      body: [
        {
          token_id: id,
          token_name: 'reader',
          used_at: expect.any(String),
          method: 'PATCH',
          path: '/api/v1/sources/x',
          status: 403,
        },
      ],
    })
    expect(
      ((await asMember(a.browser, 'GET', uses)).body as unknown[]).length,
    ).toBe(2)
    expect(await asMember(a.browser, 'GET', `${uses}?limit=0`)).toMatchObject({
      status: 400,
      body: { message: 'limit: limit must be at least 1' },
    })
    expect((await asMember(b.browser, 'GET', uses)).status).toBe(404)
    expect((await withToken(app, token, 'GET', uses)).status).toBe(403)
  })

  it('is counted and audited once when another server forwards it here', async () => {
    const secret = 'internal-secret-of-the-forwarding-test-0123456789'
    const holder = api.buildApp({
      SLUICE_INTERNAL_SECRET: secret,
      API_TOKEN_REQUESTS_PER_MINUTE: '1',
    })
    const a = await member()
    const { id, token } = await a.make()
    const send = (given: string, path = '/api/v1/sources') =>
      new Browser(holder).request(path, {
        headers: {
          authorization: `Bearer ${token}`,
          'x-sluice-internal-secret': given,
        },
      })
    for (let i = 0; i < 3; i++) expect((await send(secret)).status).toBe(200)
    // Still only what a token may call.
    expect((await send(secret, '/api/v1/users/me')).status).toBe(403)
    const uses = async () =>
      (
        await api.db.query('select 1 from api_token_uses where token_id = $1', [
          id,
        ])
      ).rowCount
    expect(await uses()).toBe(0)
    // A wrong secret is no forward: counted (one a minute here) and audited.
    expect((await send('not-the-secret')).status).toBe(200)
    expect((await send('not-the-secret')).status).toBe(429)
    expect(await uses()).toBe(2)
  })

  it('sets last_used_at, at most once a minute', async () => {
    const a = await member()
    const { id, token } = await a.make()
    expect((await tokenRow(id))?.last_used_at).toBeNull()
    await withToken(app, token, 'GET', '/api/v1/sources')
    const first = (await tokenRow(id))?.last_used_at
    expect(first).toBeInstanceOf(Date)
    const listed = (await list(a)).body as { last_used_at: string }[]
    expect(Date.parse(listed[0]!.last_used_at)).toBe(first!.getTime())
    await withToken(app, token, 'GET', '/api/v1/sources')
    expect((await tokenRow(id))?.last_used_at).toEqual(first)
    await api.db.query(
      `update api_tokens set last_used_at = now() - interval '2 minutes' where id = $1`,
      [id],
    )
    await withToken(app, token, 'GET', '/api/v1/sources')
    const later = (await tokenRow(id))?.last_used_at
    expect(later!.getTime()).toBeGreaterThan(first!.getTime() - 120_000)
    expect(later).not.toEqual(first)
  })

  it('is rate-limited per token: past the limit 429 with retry-after', async () => {
    const strict = api.buildApp({ API_TOKEN_REQUESTS_PER_MINUTE: '3' })
    const a = await member()
    const one = await a.make({ name: 'one' })
    const two = await a.make({ name: 'two' })
    const statuses: number[] = []
    for (let i = 0; i < 5; i++)
      statuses.push(
        (await withToken(strict, one.token, 'GET', '/api/v1/sources')).status,
      )
    expect(statuses).toEqual([200, 200, 200, 429, 429])
    const refused = await withToken(strict, one.token, 'GET', '/api/v1/sources')
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/)
    // Another token of the same team, and the members themselves, keep their own rate.
    expect(
      (await withToken(strict, two.token, 'GET', '/api/v1/sources')).status,
    ).toBe(200)
    expect((await a.browser.get('/api/v1/sources')).status).toBe(200)
  })
})

describe('the audit', () => {
  it("is pruned to each team's newest rows", async () => {
    const a = await member()
    const b = await member()
    const ta = await a.make()
    const tb = await b.make()
    for (let i = 0; i < 4; i++)
      await withToken(app, ta.token, 'GET', `/api/v1/teams/${a.teamId}`)
    await withToken(app, tb.token, 'GET', '/api/v1/sources')
    await pruneApiTokenUses(api.db, 2)
    const { rows } = await api.db.query<{ team_id: string; n: number }>(
      `select team_id, count(*)::int as n from api_token_uses
        where team_id = any($1) group by team_id`,
      [[a.teamId, b.teamId]],
    )
    expect(Object.fromEntries(rows.map((r) => [r.team_id, r.n]))).toEqual({
      [a.teamId]: 2,
      [b.teamId]: 1,
    })
  })
})
