// /api/admin: off (404) without SLUICE_ADMIN_TOKEN, 401 without the right bearer token, and
// with it the admin tool's operations over REST, writing the tables the dashboard reads.
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { tokenMatches } from '../../src/server/admin/routes.ts'
import {
  buildApp,
  signInLocally,
  uniqueEmail,
  type App,
} from '../support/app.ts'
import { useControlPlaneDatabase } from '../support/database.ts'

const TOKEN = 'admin-token-for-tests-0123456789'
const database = useControlPlaneDatabase()
let app: App
let off: App
beforeAll(() => {
  app = buildApp(database.db, { SLUICE_ADMIN_TOKEN: TOKEN })
  off = buildApp(database.db)
})

// A script's request: a bearer token, JSON, and no Origin or cookie.
const call = (
  method: string,
  path: string,
  body?: unknown,
  token: string | null = TOKEN,
  target = app,
) =>
  target.request(`http://localhost/api/admin${path}`, {
    method,
    headers: {
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })

type Team = { id: string; name: string; members: number }
type User = { id: string; name: string; email: string; teams: string[] }

describe('the admin API', () => {
  it('does not exist without SLUICE_ADMIN_TOKEN, even with a token sent', async () => {
    for (const [method, path] of [
      ['GET', '/teams'],
      ['POST', '/teams'],
      ['GET', '/users'],
    ] as const) {
      const response = await call(method, path, undefined, TOKEN, off)
      expect(response.status).toBe(404)
    }
  })

  it('answers 401 to a missing or wrong token', async () => {
    expect((await call('GET', '/teams', undefined, null)).status).toBe(401)
    expect((await call('GET', '/teams', undefined, 'wrong')).status).toBe(401)
    const sneaky = await call('POST', '/teams', { name: 'X' }, `${TOKEN}x`)
    expect(sneaky.status).toBe(401)
    expect(await sneaky.json()).toEqual({
      message: 'A valid admin token is required',
    })
    // A session cookie is no admin token.
    const { browser } = await signInLocally(app)
    expect((await browser.get('/api/admin/teams')).status).toBe(401)
  })

  it('compares tokens of any length without throwing', () => {
    expect(tokenMatches(TOKEN, TOKEN)).toBe(true)
    expect(tokenMatches('', TOKEN)).toBe(false)
    expect(tokenMatches(TOKEN.repeat(3), TOKEN)).toBe(false)
  })

  it('creates and lists teams, adds and removes members', async () => {
    const created = await call('POST', '/teams', { name: '  Acme  ' })
    expect(created.status).toBe(201)
    const team = (await created.json()) as Team
    expect(team).toMatchObject({ name: 'Acme', members: 0 })

    const list = (await (await call('GET', '/teams')).json()) as Team[]
    expect(list.map((t) => t.id)).toContain(team.id)

    const { user, browser } = await signInLocally(app)
    const added = await call('POST', `/teams/${team.id}/users`, {
      user_id: user.id,
    })
    expect(added.status).toBe(201)
    expect(await added.json()).toEqual({
      team_id: team.id,
      user_id: user.id,
      added: true,
    })
    // The user's own API sees the team now.
    const teams = (await (await browser.get('/api/v1/teams')).json()) as Team[]
    expect(teams.map((t) => t.id)).toContain(team.id)

    const again = await call('POST', `/teams/${team.id}/users`, {
      user_id: user.id,
    })
    expect(again.status).toBe(200)
    expect(await again.json()).toMatchObject({ added: false })

    const removed = await call('DELETE', `/teams/${team.id}/users/${user.id}`)
    expect(removed.status).toBe(200)
    const gone = await call('DELETE', `/teams/${team.id}/users/${user.id}`)
    expect(gone.status).toBe(404)
    expect((await browser.get(`/api/v1/teams/${team.id}`)).status).toBe(404)
  })

  it('creates, updates and finds users', async () => {
    const team = (await (
      await call('POST', '/teams', { name: 'T' })
    ).json()) as Team
    const email = uniqueEmail('admin')
    const created = await call('POST', '/users', {
      name: 'Grace',
      email,
      team_id: team.id,
    })
    expect(created.status).toBe(201)
    const user = (await created.json()) as User
    expect(user).toMatchObject({ name: 'Grace', email, teams: [team.id] })

    const duplicate = await call('POST', '/users', { name: 'G', email })
    expect(duplicate.status).toBe(409)

    const newEmail = uniqueEmail('renamed')
    const updated = await call('PATCH', `/users/${user.id}`, {
      name: 'Grace H',
      email: newEmail,
    })
    expect(updated.status).toBe(200)
    expect(await updated.json()).toMatchObject({
      name: 'Grace H',
      email: newEmail,
    })

    const found = await call(
      'GET',
      `/users?email=${encodeURIComponent(newEmail.toUpperCase())}`,
    )
    expect(((await found.json()) as User[]).map((u) => u.id)).toEqual([user.id])
  })

  it('answers bad input with 400 and unknown ids with 404', async () => {
    const cases: [string, string, unknown, number, string][] = [
      ['POST', '/teams', { name: '' }, 400, 'name must not be empty'],
      ['POST', '/teams', { name: 'x'.repeat(201) }, 400, 'at most 200'],
      [
        'POST',
        '/teams/not-a-uuid/users',
        { user_id: randomUUID() },
        400,
        'team must be a UUID',
      ],
      [
        'POST',
        `/teams/${randomUUID()}/users`,
        { user_id: 'x' },
        400,
        'user must be a UUID',
      ],
      [
        'POST',
        `/teams/${randomUUID()}/users`,
        { user_id: randomUUID() },
        404,
        'no team',
      ],
      [
        'POST',
        '/users',
        { name: 'A', email: 'not-an-email' },
        400,
        'valid email',
      ],
      [
        'POST',
        '/users',
        { name: 'A', email: uniqueEmail(), team_id: randomUUID() },
        404,
        'no team',
      ],
      ['PATCH', `/users/${randomUUID()}`, { name: 'A' }, 404, 'no user'],
      ['PATCH', `/users/${randomUUID()}`, {}, 400, '--name or --email'],
      ['GET', '/users?email=nope', undefined, 400, 'valid email'],
    ]
    for (const [method, path, body, status, message] of cases) {
      const response = await call(method, path, body)
      expect({ path, status: response.status }).toEqual({ path, status })
      expect(
        ((await response.json()) as { message: string }).message,
      ).toContain(message)
    }
    const notJson = await app.request('http://localhost/api/admin/teams', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
      },
      body: '{',
    })
    expect(notJson.status).toBe(400)
  })

  it('refuses a body over the JSON cap', async () => {
    const response = await call('POST', '/teams', { name: 'x'.repeat(20_000) })
    expect(response.status).toBe(413)
  })
})
