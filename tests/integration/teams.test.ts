// Membership is the only way to see a team: someone else's team looks like no team at all.
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { Browser, buildApp, signInLocally, type App } from '../support/app.ts'
import { useControlPlaneDatabase } from '../support/database.ts'

const database = useControlPlaneDatabase()
let app: App
beforeAll(() => {
  app = buildApp(database.db)
})

type Team = { id: string; name: string }

async function personalTeam(browser: Browser): Promise<Team> {
  const teams = (await (await browser.get('/api/v1/teams')).json()) as Team[]
  const me = (await (await browser.get('/api/v1/users/me')).json()) as {
    team_id: string
  }
  const team = teams.find((t) => t.id === me.team_id)
  if (!team) throw new Error('no personal team')
  return team
}

/** Two users, A and B, each with a personal team. */
async function twoUsers() {
  const a = await signInLocally(app, 'Alice')
  const b = await signInLocally(app, 'Bob')
  return {
    a: { ...a, team: await personalTeam(a.browser) },
    b: { ...b, team: await personalTeam(b.browser) },
  }
}

const notFound = { message: 'Team not found' }

describe('teams', () => {
  it('lets a user read their own team and its users', async () => {
    const { a } = await twoUsers()
    const team = await a.browser.get(`/api/v1/teams/${a.team.id}`)
    expect(team.status).toBe(200)
    expect(await team.json()).toEqual({ id: a.team.id, name: "Alice's team" })
    const users = await a.browser.get(`/api/v1/teams/${a.team.id}/users`)
    expect(users.status).toBe(200)
    expect(await users.json()).toEqual([
      { id: a.user.id, name: 'Alice', email: a.user.email },
    ])
  })

  it("answers another user's team with 404, as if it did not exist", async () => {
    const { a, b } = await twoUsers()
    const team = await a.browser.get(`/api/v1/teams/${b.team.id}`)
    expect(team.status).toBe(404)
    expect(await team.json()).toEqual(notFound)
    const users = await a.browser.get(`/api/v1/teams/${b.team.id}/users`)
    expect(users.status).toBe(404)
    expect(await users.json()).toEqual(notFound)

    const unknown = await a.browser.get(`/api/v1/teams/${randomUUID()}`)
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toEqual(notFound)
  })

  it.each([
    'not-a-uuid',
    '1',
    "x' or '1'='1",
    '00000000-0000-0000-0000-00000000000g',
  ])('answers the team id %j with 404', async (id) => {
    const { a } = await twoUsers()
    for (const path of [
      `/api/v1/teams/${encodeURIComponent(id)}`,
      `/api/v1/teams/${encodeURIComponent(id)}/users`,
    ]) {
      const response = await a.browser.get(path)
      expect(response.status).toBe(404)
      expect(await response.json()).toEqual(notFound)
    }
  })

  it("lists only the user's own teams", async () => {
    const { a, b } = await twoUsers()
    // A joins a shared team; B owns another team A is not in.
    const { rows } = await database.db.query<{ id: string }>(
      `with shared as (insert into teams (name) values ('Shared') returning id),
            other as (insert into teams (name) values ('Bob only') returning id),
            joined as (
              insert into memberships (team_id, user_id, role)
              select id, $1::uuid, 'member' from shared
              union all select id, $2::uuid, 'owner' from shared
              union all select id, $2::uuid, 'owner' from other
              returning team_id)
       select id from shared`,
      [a.user.id, b.user.id],
    )
    const shared = rows[0]?.id

    const response = await a.browser.get('/api/v1/teams')
    expect(response.status).toBe(200)
    const teams = (await response.json()) as Team[]
    expect(teams.map((t) => t.id).sort()).toEqual([a.team.id, shared].sort())

    const members = await a.browser.get(`/api/v1/teams/${shared}/users`)
    expect(members.status).toBe(200)
    expect(
      ((await members.json()) as { id: string }[]).map((u) => u.id).sort(),
    ).toEqual([a.user.id, b.user.id].sort())
  })

  it('lists only the sources of teams the user is in', async () => {
    const { a, b } = await twoUsers()
    await database.db.query(
      `insert into sources (team_id, name, region, connection_url, source_secret)
       values ($1, 'mine', 'eu-west-1', 'postgres://a@db/a', 's1'),
              ($2, 'theirs', 'us-east-1', 'postgres://b@db/b', 's2')`,
      [a.team.id, b.team.id],
    )
    const response = await a.browser.get('/api/v1/sources')
    expect(response.status).toBe(200)
    const sources = (await response.json()) as Record<string, unknown>[]
    expect(sources.map((s) => s.name)).toEqual(['mine'])
    expect(sources[0]).not.toHaveProperty('encrypted_password')
  })

  it('requires a session', async () => {
    const { a } = await twoUsers()
    const anonymous = new Browser(app)
    for (const path of [
      '/api/v1/teams',
      `/api/v1/teams/${a.team.id}`,
      '/api/v1/users/me',
    ]) {
      const response = await anonymous.get(path)
      expect(response.status).toBe(401)
    }
  })
})
