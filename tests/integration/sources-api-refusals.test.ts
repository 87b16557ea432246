// PUT /api/v1/sources: what it refuses (bodies, URLs, hosts, databases that are not ready,
// teams the user is not in), and that no password reaches an answer or the log on the way.
import { randomUUID } from 'node:crypto'
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { Browser } from '../support/app.ts'
import { skip, urlFor, useSourcesApi } from '../support/sources-api.ts'

const api = useSourcesApi()

describe('what is refused', () => {
  it('answers 400 naming what a database lacks', async () => {
    const { browser, teamId } = await api.signIn()
    const noReplication = await api.role('')
    const db = await api.newDatabase()
    await api.admin(`grant create on database ${db} to ${noReplication.name}`)
    const answer = await api.put(browser, {
      region: 'eu-west-1',
      team_id: teamId,
      database_url: urlFor(noReplication, db),
    })
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual({
      message: `The database is not ready: the user "${noReplication.name}" lacks the REPLICATION attribute.`,
    })

    const noCreate = await api.role('replication')
    const refused = await api.put(browser, {
      region: 'eu-west-1',
      team_id: teamId,
      database_url: urlFor(noCreate, db),
    })
    expect(refused.status).toBe(400)
    expect(refused.body.message).toBe(
      `The database is not ready: the user "${noCreate.name}" lacks the CREATE privilege on database "${db}".`,
    )

    const wrong = await api.put(browser, {
      region: 'eu-west-1',
      team_id: teamId,
      database_url: urlFor({ ...noCreate, password: 'wrong-pw-4711' }, db),
    })
    api.passwords.add('wrong-pw-4711')
    expect(wrong.status).toBe(400)
    expect(wrong.body.message).toBe(
      `Could not connect to the database: Password authentication failed for user "${noCreate.name}".`,
    )
    expect(await api.teamSources(teamId)).toBe(0)
  })

  it('answers 400 for a bad URL or body, without the password', async () => {
    const { browser, teamId } = await api.signIn()
    api.passwords.add('hunter22')
    const body = { region: 'eu-west-1', team_id: teamId }
    const badPort = await api.put(browser, {
      ...body,
      database_url: 'postgres://u:hunter22@h:port/db',
    })
    expect(badPort.status).toBe(400)
    expect(badPort.body.message).toBe(
      'The port must be a number from 1 to 65535.',
    )

    // The password 4711?hunter22, unencoded: its tail spills into the query string.
    const spilled = await api.put(browser, {
      ...body,
      database_url: 'postgres://u:4711?hunter22@h/db',
    })
    expect(spilled.status).toBe(400)
    expect(spilled.body.message).toBe(
      'Invalid database URL provided. Special characters must be URL encoded.',
    )

    const region = await api.put(browser, {
      ...body,
      region: 'ca-west-1',
      database_url: 'postgres://u:hunter22@h/db',
    })
    expect(region.status).toBe(400)
    expect(region.body.message).toMatch(/^region: /)

    const noUrl = await api.put(browser, body)
    expect(noUrl.status).toBe(400)
    expect(noUrl.body.message).toMatch(/^database_url: /)

    const notJson = await api.put(browser, '{"region":')
    expect(notJson.status).toBe(400)
    expect(notJson.body.message).toBe('Request body must be JSON')
    expect(await api.teamSources(teamId)).toBe(0)
  })

  it('answers 401 when signed out', async () => {
    const answer = await api.put(new Browser(api.app), {
      region: 'eu-west-1',
      team_id: randomUUID(),
      database_url: 'postgres://u:pw@db.example.com/db',
    })
    expect(answer.status).toBe(401)
  })

  it("answers 404 for another user's team, as for an unknown one", async () => {
    const a = await api.signIn()
    const b = await api.signIn()
    const { url } = await api.readyDatabase()
    for (const teamId of [b.teamId, randomUUID()]) {
      const answer = await api.put(
        a.browser,
        { region: 'eu-west-1', team_id: teamId, database_url: url },
        skip,
      )
      expect(answer.status).toBe(404)
      expect(answer.body).toEqual({ message: 'Team not found' })
    }
    expect(await api.teamSources(b.teamId)).toBe(0)
  })

  it('limits readiness checks per user; skipped checks are not counted', async () => {
    const limited = api.buildApp(
      {},
      {
        databaseChecks: {
          limits: { perIp: 1, windowMs: 60_000, concurrent: 8 },
        },
      },
    )
    const { browser, teamId } = await api.signIn(limited)
    const body = async () => ({
      region: 'eu-west-1',
      team_id: teamId,
      database_url: (await api.readyDatabase()).url,
    })
    expect((await api.put(browser, await body())).status).toBe(201)
    const second = await api.put(browser, await body())
    expect(second.status).toBe(429)
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await api.put(browser, await body(), skip)).status).toBe(201)
    const other = await api.signIn(limited)
    const theirs = { ...(await body()), team_id: other.teamId }
    expect((await api.put(other.browser, theirs)).status).toBe(201)
  })
})

describe('a hosted server', () => {
  const hosted = {
    SLUICE_MODE: 'hosted',
    SLUICE_SECRET: 'y'.repeat(32),
    PUBLIC_URL: 'http://localhost',
    // A test's way to sign in without an OAuth fake; no real hosted server runs like this.
    LOCAL_LOGIN: 'true',
    DANGEROUSLY_ALLOW_LOCAL_LOGIN_IN_HOSTED_MODE: 'true',
  }

  it('refuses loopback and internal names even with skip_validation, connecting to nothing', async () => {
    let connections = 0
    const listener = createServer((socket) => {
      connections += 1
      socket.destroy()
    })
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r))
    const { port: listening } = listener.address() as { port: number }
    let lookups = 0
    const hostedApp = api.buildApp(hosted, {
      databaseChecks: {
        resolve: async () => {
          lookups += 1
          return ['127.0.0.1']
        },
      },
    })
    try {
      const { browser, teamId } = await api.signIn(hostedApp)
      for (const host of [
        '127.0.0.1',
        '[::ffff:127.0.0.1]',
        'localhost',
        'db.internal',
      ])
        for (const query of [skip, '']) {
          const answer = await api.put(
            browser,
            {
              region: 'eu-west-1',
              team_id: teamId,
              database_url: `postgres://u:pw@${host}:${listening}/db`,
            },
            query,
          )
          expect(answer.status).toBe(400)
          expect(answer.body).toEqual({
            message:
              'This host is not allowed: Sluice only checks databases on public internet addresses.',
          })
        }
      // A public-looking name that resolves inward is refused too, after its one lookup.
      const rebound = await api.put(
        browser,
        {
          region: 'eu-west-1',
          team_id: teamId,
          database_url: `postgres://u:pw@db.example.com:${listening}/db`,
        },
        skip,
      )
      expect(rebound.status).toBe(400)
      expect(lookups).toBe(1)
      expect(connections).toBe(0)
      expect(await api.teamSources(teamId)).toBe(0)
    } finally {
      await new Promise((r) => listener.close(r))
    }
  })
})
