// What keeps a user from filling the server with sources: a rate of creates per user and per
// team (429 with retry-after), and a maximum of live sources per team (409 with a message the
// dashboard shows), which concurrent creates cannot exceed.
import { describe, expect, it } from 'vitest'
import { teamFullMessage } from '../../src/server/sources/create/routes.ts'
import type { Browser } from '../support/app.ts'
import { skip, useSourcesApi } from '../support/sources-api.ts'

const api = useSourcesApi()

/** A clock the test moves: limits never depend on how fast the test runs. */
function testClock() {
  let time = Date.now()
  return { now: () => time, advance: (ms: number) => (time += ms) }
}

let databases = 0
/** A create skipping the readiness check, for a database no other create names. */
function create(browser: Browser, teamId: string) {
  databases += 1
  return api.put(
    browser,
    {
      region: 'eu-west-1',
      team_id: teamId,
      database_url: `postgres://app:pw@127.0.0.1:5432/db_${databases}`,
    },
    skip,
  )
}

describe('the rate of creates', () => {
  it('answers 429 with retry-after past the rate, and admits again a minute later', async () => {
    const clock = testClock()
    const app = api.buildApp(
      { SOURCE_CREATES_PER_MINUTE: '3' },
      { now: clock.now },
    )
    const { browser, teamId } = await api.signIn(app)
    for (let i = 0; i < 3; i += 1)
      expect((await create(browser, teamId)).status).toBe(201)
    const limited = await create(browser, teamId)
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('60')
    expect(limited.body).toEqual({
      message:
        'Too many sources added in a short time; please try again in a minute.',
    })
    expect(await api.teamSources(teamId)).toBe(3)

    clock.advance(60_000)
    expect((await create(browser, teamId)).status).toBe(201)
  })

  it('counts per team: another member is refused for that team, not for their own', async () => {
    const app = api.buildApp(
      { SOURCE_CREATES_PER_MINUTE: '2' },
      { now: testClock().now },
    )
    const owner = await api.signIn(app)
    const member = await api.signIn(app)
    const me = await member.browser.get('/api/v1/users/me')
    const { id } = (await me.json()) as { id: string }
    // Nothing in the product adds a member yet; the limit must not rely on that.
    await api.db.query(
      `insert into memberships (team_id, user_id, role) values ($1, $2, 'member')`,
      [owner.teamId, id],
    )
    for (let i = 0; i < 2; i += 1)
      expect((await create(owner.browser, owner.teamId)).status).toBe(201)
    expect((await create(member.browser, owner.teamId)).status).toBe(429)
    expect((await create(member.browser, member.teamId)).status).toBe(201)
  })
})

describe('the maximum of sources per team', () => {
  it('answers 409 with its message when the team is full; deleted sources do not count', async () => {
    const app = api.buildApp({ MAX_SOURCES_PER_TEAM: '2' })
    const { browser, teamId } = await api.signIn(app)
    const first = await create(browser, teamId)
    expect(first.status).toBe(201)
    expect((await create(browser, teamId)).status).toBe(201)
    const full = await create(browser, teamId)
    expect(full.status).toBe(409)
    expect(full.body).toEqual({ message: teamFullMessage(2) })
    expect(full.body.message).toBe(
      'This team already has 2 sources, the most it can have. Delete a source to add another.',
    )
    expect(await api.teamSources(teamId)).toBe(2)

    await api.db.query('update sources set deleted_at = now() where id = $1', [
      first.body.id,
    ])
    expect((await create(browser, teamId)).status).toBe(201)
  })

  it('still answers a database the full team already has with 200', async () => {
    const app = api.buildApp({ MAX_SOURCES_PER_TEAM: '1' })
    const { browser, teamId } = await api.signIn(app)
    const body = {
      region: 'eu-west-1',
      team_id: teamId,
      database_url: 'postgres://app:pw@127.0.0.1:5432/only',
    }
    const created = await api.put(browser, body, skip)
    expect(created.status).toBe(201)
    const again = await api.put(browser, body, skip)
    expect(again.status).toBe(200)
    expect(again.body.id).toBe(created.body.id)
  })

  it('holds under concurrent creates', async () => {
    const app = api.buildApp({
      MAX_SOURCES_PER_TEAM: '3',
      SOURCE_CREATES_PER_MINUTE: '100',
    })
    const { browser, teamId } = await api.signIn(app)
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => create(browser, teamId)),
    )
    const statuses = answers.map((a) => a.status).sort()
    expect(statuses.filter((s) => s === 201)).toHaveLength(3)
    expect(statuses.filter((s) => s === 409)).toHaveLength(9)
    expect(await api.teamSources(teamId)).toBe(3)
  })
})
