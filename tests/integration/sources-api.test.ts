// PUT /api/v1/sources through the whole app, against real Postgres roles and databases: what
// is written and answered for a new source and for one the team already has.
import { describe, expect, it } from 'vitest'
import { openPassword } from '../../src/server/platform/crypto/source-passwords.ts'
import {
  ALREADY_REGISTERED_MESSAGE,
  createSourceResponseSchema,
  SOURCE_EVENTS,
} from '../../src/shared/sources.ts'
import { TEST_SOURCE_PASSWORD_KEY } from '../support/app.ts'
import { port, skip, urlFor, useSourcesApi } from '../support/sources-api.ts'

const api = useSourcesApi()

describe('adding a source', () => {
  it('answers 201 for a ready database and stores no password in the clear', async () => {
    const { browser, teamId } = await api.signIn()
    const { user, db, url } = await api.readyDatabase()
    const answer = await api.put(browser, {
      region: 'eu-west-1',
      team_id: teamId,
      database_url: url,
      instance: 'ignored',
    })
    expect(answer.status).toBe(201)
    const parsed = createSourceResponseSchema.parse(answer.body)
    expect(parsed).toEqual({
      id: expect.any(String),
      source_secret: expect.any(String),
      status: 'pending',
      txid: expect.any(Number),
    })

    const row = await api.sourceRow(parsed.id)
    expect(row).toMatchObject({
      team_id: teamId,
      region: 'eu-west-1',
      state: 'initializing',
      connection_url: `postgresql://${user.name}@127.0.0.1:${port()}/${db}`,
      source_secret: parsed.source_secret,
      database_key: `127.0.0.1:${port()}/${db}`,
    })
    // The row is what the answered transaction wrote, so the dashboard can wait for its txid.
    expect(Number(row.xmin)).toBe(parsed.txid)
    expect(row.source_secret.length).toBeGreaterThanOrEqual(40)
    const sealed = row.encrypted_password
    if (!sealed) throw new Error('the password was not stored')
    expect(sealed.includes(Buffer.from(user.password))).toBe(false)
    expect(openPassword(TEST_SOURCE_PASSWORD_KEY, parsed.id, sealed)).toBe(
      user.password,
    )

    const log = await api.events(parsed.id)
    expect(log).toEqual([
      {
        event_name: SOURCE_EVENTS.created,
        event_details: {
          region: 'eu-west-1',
          database: `127.0.0.1:${port()}/${db}`,
        },
        instance_id: 'api',
      },
    ])
  })

  it('skips the readiness check with skip_validation=true, but never the URL rules', async () => {
    const { browser, teamId } = await api.signIn()
    const user = await api.role('') // no REPLICATION, no CREATE: not ready
    const db = await api.newDatabase()
    const body = {
      region: 'us-east-1',
      team_id: teamId,
      database_url: urlFor(user, db),
    }
    expect((await api.put(browser, body)).status).toBe(400)
    const answer = await api.put(browser, body, skip)
    expect(answer.status).toBe(201)
    const parsed = createSourceResponseSchema.parse(answer.body)
    expect(await api.events(parsed.id)).toHaveLength(1)

    const bad = await api.put(
      browser,
      { ...body, database_url: 'postgres://u:hunter22@h/db?host=10.0.0.1' },
      skip,
    )
    expect(bad.status).toBe(400)
    expect(bad.body.message).toContain('"host"')
  })

  it('stores no sealed password when the URL has none', async () => {
    const { browser, teamId } = await api.signIn()
    const db = await api.newDatabase()
    const answer = await api.put(
      browser,
      {
        region: 'us-east-1',
        team_id: teamId,
        database_url: `postgres://nobody@127.0.0.1:${port()}/${db}?sslmode=disable`,
      },
      skip,
    )
    expect(answer.status).toBe(201)
    const row = await api.sourceRow(answer.body.id)
    expect(row.encrypted_password).toBeNull()
    expect(row.connection_url).toBe(
      `postgresql://nobody@127.0.0.1:${port()}/${db}?sslmode=disable`,
    )
  })
})

describe('a database the team already has in that region', () => {
  it('answers 200 with the existing source, whoever logs in to it', async () => {
    const { browser, teamId } = await api.signIn()
    const { db, url } = await api.readyDatabase()
    const body = { region: 'eu-west-1', team_id: teamId, database_url: url }
    const first = createSourceResponseSchema.parse(
      (await api.put(browser, body)).body,
    )

    const again = await api.put(browser, body)
    expect(again.status).toBe(200)
    expect(again.body).toEqual({
      id: first.id,
      source_secret: first.source_secret,
      status: 'pending',
      message: ALREADY_REGISTERED_MESSAGE,
    })
    createSourceResponseSchema.parse(again.body)

    const other = await api.role('replication')
    await api.admin(`grant create on database ${db} to ${other.name}`)
    const otherUser = await api.put(browser, {
      ...body,
      database_url: urlFor(other, db),
    })
    expect(otherUser.status).toBe(200)
    expect(otherUser.body.id).toBe(first.id)

    const elsewhere = await api.put(browser, { ...body, region: 'us-east-1' })
    expect(elsewhere.status).toBe(201)
    expect(elsewhere.body.id).not.toBe(first.id)
    expect(await api.teamSources(teamId)).toBe(2)
    expect(await api.events(first.id)).toHaveLength(1)
  })

  it('knows a host however it is cased, and answers its state', async () => {
    const { browser, teamId } = await api.signIn()
    const { user, db } = await api.readyDatabase()
    const body = (host: string) => ({
      region: 'us-east-1',
      team_id: teamId,
      database_url: urlFor(user, db, host),
    })
    const first = await api.put(browser, body('localhost'), skip)
    expect(first.status).toBe(201)
    for (const [state, status] of [
      ['active', 'active'],
      ['error', 'error'],
      ['reconnecting', 'pending'],
    ]) {
      await api.db.query('update sources set state = $2 where id = $1', [
        first.body.id,
        state,
      ])
      const again = await api.put(browser, body('LocalHost'), skip)
      expect(again.status).toBe(200)
      expect(again.body).toMatchObject({ id: first.body.id, status })
    }
  })

  it('writes one source when the same database is added at once, and answers it to all', async () => {
    const { browser, teamId } = await api.signIn()
    const { url } = await api.readyDatabase()
    const body = { region: 'eu-west-1', team_id: teamId, database_url: url }
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => api.put(browser, body, skip)),
    )
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 201])
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1)
    expect(await api.teamSources(teamId)).toBe(1)
    expect(await api.events(answers[0]?.body.id)).toHaveLength(1)
  })

  it('is a new source again once the old one is deleted', async () => {
    const { browser, teamId } = await api.signIn()
    const { url } = await api.readyDatabase()
    const body = { region: 'eu-west-1', team_id: teamId, database_url: url }
    const first = await api.put(browser, body, skip)
    await api.db.query('update sources set deleted_at = now() where id = $1', [
      first.body.id,
    ])
    const second = await api.put(browser, body, skip)
    expect(second.status).toBe(201)
    expect(second.body.id).not.toBe(first.body.id)
  })
})
