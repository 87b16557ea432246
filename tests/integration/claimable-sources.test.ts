// Claimable sources against real Postgres: a script creates one with no cookie and no Origin;
// it goes from pending to ready as the runtime starts it (or to failed, with the reason);
// refusals, the per-IP limit and the cap on unclaimed sources; and an unclaimed one is removed
// when it expires: slot and publication dropped on the user's database, the claim then unknown.
// Claiming is claimable-sources-claim.test.ts.
import { beforeEach, describe, expect, it } from 'vitest'
import {
  CLAIM_MESSAGES,
  claimableSourceSchema,
} from '../../src/shared/claimable-sources.ts'
import { buildApp, keysWith, signInLocally } from '../support/app.ts'
import {
  claim,
  createThrough,
  replicationObjects,
  useClaimableServer,
} from '../support/claimable.ts'
import {
  clearRateLimits,
  useControlPlaneDatabase,
} from '../support/database.ts'
import { eventNames, personalTeam, sourceRow } from '../support/sources.ts'

const control = useControlPlaneDatabase()
// Each test's apps start with no client address counted (the rate test builds a strict one).
beforeEach(() => clearRateLimits(control.db))
const api = useClaimableServer(control)

describe('creating a claimable source', () => {
  it('answers a claim id; the source is pending, then ready with its secret, in no team', async () => {
    const database = await api.sourceDatabase()
    // Through the app with no runtime, so the source cannot have started before the first read.
    const created = await createThrough(api.quiet, {
      database_url: database.url,
      claim_link: 'https://example.com/transfer',
    })
    expect(created.status).toBe(201)
    const { claimId } = (await created.json()) as { claimId: string }
    expect(claimId).toMatch(/^[0-9a-f-]{36}$/)

    const pending = claimableSourceSchema.parse(
      (await api.claimState(claimId)).body,
    )
    expect(pending).toMatchObject({
      state: 'pending',
      source: { source_id: expect.any(String), secret: expect.any(String) },
      claim_link: 'https://example.com/transfer',
    })
    const row = await control.db.query<{
      team_id: string | null
      region: string
      source_secret: string
    }>('select team_id, region, source_secret from sources where id = $1', [
      pending.source.source_id,
    ])
    expect(row.rows[0]).toEqual({
      team_id: null,
      region: 'us-east-1',
      source_secret: pending.source.secret,
    })
    const { rows: claims } = await control.db.query<{ hours: number }>(
      `select extract(epoch from expires_at - created_at) / 3600 as hours
         from claimable_sources where id = $1`,
      [claimId],
    )
    expect(Number(claims[0]?.hours)).toBe(72)

    api.server.runtime.kick()
    await api.untilState(claimId, 'ready')
    // The engine serves it to the script with the secret at once.
    await database.db.query('create table todos (id int primary key)')
    const shape = await fetch(
      `${api.server.origin}/v1/shape?table=todos&offset=-1&source_id=${pending.source.source_id}&source_secret=${pending.source.secret}`,
    )
    expect(shape.status).toBe(200)

    // Nobody sees a team-less source.
    const { browser } = await signInLocally(api.server.app)
    const mine = await browser.get('/api/v1/sources')
    expect(await mine.json()).toEqual([])
  }, 60_000)

  it('answers failed, with the reason, when the source cannot become active', async () => {
    const database = await api.sourceDatabase()
    const created = await createThrough(api.quiet, {
      database_url: database.url,
    })
    const { claimId } = (await created.json()) as { claimId: string }
    // Ready when checked; the right goes before the engine takes it on.
    await database.admin.query(`alter role ${database.role} noreplication`)
    api.server.runtime.kick()
    const failed = await api.untilState(claimId, 'failed')
    expect(failed.message).toContain('REPLICATION')
    expect(failed.message).not.toContain(database.password)
    // Not claimable: a claim of it is refused as not ready.
    const owner = await signInLocally(api.server.app)
    const teamId = await personalTeam(control.db, owner.user.id)
    const refused = await claim(owner.browser, claimId, teamId)
    expect(refused.status).toBe(409)
  }, 60_000)

  it('refuses bad input, a URL the guard refuses and a database that is not ready', async () => {
    const bad = await api.createOverHttp({ database_url: 'not a url' })
    expect(bad.status).toBe(400)
    const http = await api.createOverHttp({
      database_url: 'postgres://u:p@db.example.com/x',
      claim_link: 'http://example.com/',
    })
    expect(http).toMatchObject({
      status: 400,
      body: { message: 'claim_link: claim_link must be an https URL' },
    })
    const region = await api.createOverHttp({
      database_url: 'postgres://u:p@db.example.com/x',
      region: 'ca-west-1',
    })
    expect(region.status).toBe(400)
    const metadata = await api.createOverHttp({
      database_url: 'postgres://u:secret-pw@169.254.169.254/x',
    })
    expect(metadata.status).toBe(400)
    expect(JSON.stringify(metadata.body)).not.toContain('secret-pw')

    const database = await api.sourceDatabase()
    await database.admin.query(`alter role ${database.role} noreplication`)
    const notReady = await api.createOverHttp({ database_url: database.url })
    expect(notReady.status).toBe(400)
    expect((notReady.body as { message: string }).message).toContain(
      'lacks the REPLICATION attribute',
    )
    expect(JSON.stringify(notReady.body)).not.toContain(database.password)
  }, 30_000)

  it('is rate-limited per client address', async () => {
    const limited = buildApp(
      control.db,
      {},
      {
        keys: keysWith(api.server.key),
        databaseChecks: {
          limits: { perIp: 2, windowMs: 60_000, concurrent: 8 },
        },
      },
    )
    const post = () => createThrough(limited, {})
    expect((await post()).status).toBe(400)
    expect((await post()).status).toBe(400)
    const refused = await post()
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
  })

  it('stops at the cap on sources waiting to be claimed', async () => {
    const { rows } = await control.db.query<{ n: number }>(
      `select count(*)::int as n from claimable_sources
        where claimed_at is null and expires_at > now()`,
    )
    const capped = buildApp(
      control.db,
      { MAX_UNCLAIMED_SOURCES: String((rows[0]?.n ?? 0) + 1) },
      { keys: keysWith(api.server.key), sources: api.server.runtime },
    )
    const post = (url: string) => createThrough(capped, { database_url: url })
    expect((await post((await api.sourceDatabase()).url)).status).toBe(201)
    const full = await post((await api.sourceDatabase()).url)
    expect(full.status).toBe(503)
    expect(await full.json()).toEqual({
      message:
        'Too many sources are waiting to be claimed right now. Please try again later.',
    })
  }, 30_000)

  it('answers 404 for a claim id nobody made', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope'])
      expect(await api.claimState(id)).toEqual({
        status: 404,
        body: { message: CLAIM_MESSAGES.notClaimable },
      })
  })
})

describe('an unclaimed source past its time', () => {
  it('is removed: slot and publication dropped, its logs and row gone, the claim unknown', async () => {
    const { claimId, sourceId, database } = await api.readyClaim()
    expect(await replicationObjects(database, sourceId)).toBe(2)
    await control.db.query(
      `update claimable_sources set expires_at = now() - interval '1 second' where id = $1`,
      [claimId],
    )
    expect(await api.claimState(claimId)).toEqual({
      status: 404,
      body: { message: CLAIM_MESSAGES.notClaimable },
    })
    api.server.runtime.kick()
    await expect
      .poll(() => sourceRow(control.db, sourceId), { timeout: 20_000 })
      .toBeNull()
    expect(await replicationObjects(database, sourceId)).toBe(0)
    expect(await eventNames(control.db, sourceId)).toEqual([])
    const { rows } = await control.db.query(
      'select 1 from claimable_sources where id = $1',
      [claimId],
    )
    expect(rows).toEqual([])
    expect((await api.claimState(claimId)).status).toBe(404)
  }, 60_000)
})
