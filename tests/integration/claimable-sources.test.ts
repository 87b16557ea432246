// Claimable sources end to end against real Postgres: a script creates one with no cookie and
// no Origin, it goes from pending to ready as the runtime starts it, a signed-in member claims
// it into a team once (even when two claims race), the team's synced `sources` shape receives
// it as an insert, and an unclaimed one is removed when it expires: slot and publication
// dropped on the user's database, the claim then unknown.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { replicationNames } from '../../src/engine/replication/names.ts'
import {
  CLAIM_MESSAGES,
  claimableSourceSchema,
} from '../../src/shared/claimable-sources.ts'
import {
  ALREADY_REGISTERED_MESSAGE,
  SOURCE_EVENTS,
} from '../../src/shared/sources.ts'
import { Browser, buildApp, signInLocally, type App } from '../support/app.ts'
import { useControlPlaneDatabase } from '../support/database.ts'
import {
  createSourceDatabase,
  eventNames,
  personalTeam,
  sourceRow,
  startSourceServer,
  type SourceDatabase,
  type SourceServer,
} from '../support/sources.ts'

const control = useControlPlaneDatabase()
const PATH = '/api/public/v1/claimable-sources'
let server: SourceServer
/** The same control plane without a runtime: nothing it creates starts until the server polls. */
let quiet: App
/** The server's runtime behind limits a file of creates never meets (the limit has its test). */
let scripts: App
const databases: SourceDatabase[] = []

beforeAll(async () => {
  // Polls rarely: a test kicks the runtime when it wants the table read.
  server = await startSourceServer(
    control.db,
    { pollIntervalMs: 60_000 },
    { controlPlaneUrl: control.url },
  )
  quiet = buildApp(control.db, {}, { sourcePasswordKey: server.key })
  scripts = buildApp(
    control.db,
    {},
    {
      sourcePasswordKey: server.key,
      sources: server.runtime,
      databaseChecks: {
        limits: { perIp: 1000, windowMs: 60_000, concurrent: 8 },
      },
    },
  )
}, 60_000)

afterAll(async () => {
  await server?.stop()
  for (const database of databases) await database.drop()
})

async function sourceDatabase() {
  const database = await createSourceDatabase()
  databases.push(database)
  return database
}

/** A script's POST: plain fetch over HTTP, no cookie, no Origin. */
async function createOverHttp(body: unknown) {
  const response = await fetch(`${server.origin}${PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as never }
}

async function claimState(claimId: string) {
  const response = await fetch(`${server.origin}${PATH}/${claimId}`)
  return { status: response.status, body: (await response.json()) as never }
}

async function readyClaim(database?: SourceDatabase) {
  const db = database ?? (await sourceDatabase())
  // A script's request: no cookie, no Origin.
  const created = await new Browser(scripts).request(PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ database_url: db.url }),
  })
  expect(created.status).toBe(201)
  const { claimId } = (await created.json()) as { claimId: string }
  await vi.waitFor(
    async () =>
      expect(
        ((await claimState(claimId)).body as { state: string }).state,
      ).toBe('ready'),
    { timeout: 20_000, interval: 100 },
  )
  const answer = claimableSourceSchema.parse((await claimState(claimId)).body)
  return { claimId, sourceId: answer.source.source_id, database: db }
}

const claim = (browser: Browser, claimId: string, teamId: string) =>
  browser.postJson(`${PATH}/claim`, { claimId, teamId })

async function replicationObjects(database: SourceDatabase, id: string) {
  const { slot, publication } = replicationNames(id)
  const { rows } = await database.admin.query<{ n: number }>(
    `select (select count(*) from pg_replication_slots where slot_name = $1)
          + (select count(*) from pg_publication where pubname = $2) as n`,
    [slot, publication],
  )
  return Number(rows[0]?.n)
}

type Message = {
  value?: Record<string, unknown>
  headers: Record<string, unknown>
}

describe('creating a claimable source', () => {
  it('answers a claim id; the source is pending, then ready with its secret, in no team', async () => {
    const database = await sourceDatabase()
    // Through the app with no runtime, so the source cannot have started before the first read.
    const created = await new Browser(quiet).request(PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        database_url: database.url,
        claim_link: 'https://example.com/transfer',
      }),
    })
    expect(created.status).toBe(201)
    const { claimId } = (await created.json()) as { claimId: string }
    expect(claimId).toMatch(/^[0-9a-f-]{36}$/)

    const pending = claimableSourceSchema.parse(
      (await claimState(claimId)).body,
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

    server.runtime.kick()
    await vi.waitFor(
      async () =>
        expect(
          ((await claimState(claimId)).body as { state: string }).state,
        ).toBe('ready'),
      { timeout: 20_000, interval: 100 },
    )
    // The engine serves it to the script with the secret at once.
    await database.db.query('create table todos (id int primary key)')
    const shape = await fetch(
      `${server.origin}/v1/shape?table=todos&offset=-1&source_id=${pending.source.source_id}&source_secret=${pending.source.secret}`,
    )
    expect(shape.status).toBe(200)

    // Nobody sees a team-less source.
    const { browser } = await signInLocally(server.app)
    const mine = await browser.get('/api/v1/sources')
    expect(await mine.json()).toEqual([])
  }, 60_000)

  it('answers failed, with the reason, when the source cannot become active', async () => {
    const database = await sourceDatabase()
    const created = await new Browser(quiet).request(PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ database_url: database.url }),
    })
    const { claimId } = (await created.json()) as { claimId: string }
    // Ready when checked; the right goes before the engine takes it on.
    await database.admin.query(`alter role ${database.role} noreplication`)
    server.runtime.kick()
    await vi.waitFor(
      async () =>
        expect(
          ((await claimState(claimId)).body as { state: string }).state,
        ).toBe('failed'),
      { timeout: 20_000, interval: 100 },
    )
    const failed = claimableSourceSchema.parse((await claimState(claimId)).body)
    expect(failed.message).toContain('REPLICATION')
    expect(failed.message).not.toContain(database.password)
    // Not claimable: a claim of it is refused as not ready.
    const owner = await signInLocally(server.app)
    const teamId = await personalTeam(control.db, owner.user.id)
    const refused = await claim(owner.browser, claimId, teamId)
    expect(refused.status).toBe(409)
  }, 60_000)

  it('refuses bad input, a URL the guard refuses and a database that is not ready', async () => {
    const bad = await createOverHttp({ database_url: 'not a url' })
    expect(bad.status).toBe(400)
    const http = await createOverHttp({
      database_url: 'postgres://u:p@db.example.com/x',
      claim_link: 'http://example.com/',
    })
    expect(http).toMatchObject({
      status: 400,
      body: { message: 'claim_link: claim_link must be an https URL' },
    })
    const region = await createOverHttp({
      database_url: 'postgres://u:p@db.example.com/x',
      region: 'ca-west-1',
    })
    expect(region.status).toBe(400)
    const metadata = await createOverHttp({
      database_url: 'postgres://u:secret-pw@169.254.169.254/x',
    })
    expect(metadata.status).toBe(400)
    expect(JSON.stringify(metadata.body)).not.toContain('secret-pw')

    const database = await sourceDatabase()
    await database.admin.query(`alter role ${database.role} noreplication`)
    const notReady = await createOverHttp({ database_url: database.url })
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
        sourcePasswordKey: server.key,
        databaseChecks: {
          limits: { perIp: 2, windowMs: 60_000, concurrent: 8 },
        },
      },
    )
    const script = new Browser(limited)
    const post = () =>
      script.request(PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
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
      { sourcePasswordKey: server.key, sources: server.runtime },
    )
    const post = async (url: string) =>
      new Browser(capped).request(PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ database_url: url }),
      })
    expect((await post((await sourceDatabase()).url)).status).toBe(201)
    const full = await post((await sourceDatabase()).url)
    expect(full.status).toBe(503)
    expect(await full.json()).toEqual({
      message:
        'Too many sources are waiting to be claimed right now. Please try again later.',
    })
  }, 30_000)

  it('answers 404 for a claim id nobody made', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope'])
      expect(await claimState(id)).toEqual({
        status: 404,
        body: { message: CLAIM_MESSAGES.notClaimable },
      })
  })
})

describe('claiming', () => {
  it('needs a signed-in member, a ready source, and moves it once, live into the team', async () => {
    const { claimId, sourceId } = await readyClaim()
    const owner = await signInLocally(server.app)
    const teamId = await personalTeam(control.db, owner.user.id)

    const anonymous = await claim(new Browser(server.app), claimId, teamId)
    expect(anonymous.status).toBe(401)
    expect(await anonymous.json()).toEqual({
      message: CLAIM_MESSAGES.signedOut,
    })
    // Claiming uses the session: the same-origin rule still guards it.
    const crossSite = await owner.browser.request(`${PATH}/claim`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ claimId, teamId }),
    })
    expect(crossSite.status).toBe(403)

    const stranger = await signInLocally(server.app)
    expect((await claim(stranger.browser, claimId, teamId)).status).toBe(404)

    // Not active (the engine lost it for a moment): not ready.
    await control.db.query(
      `update sources set state = 'reconnecting' where id = $1`,
      [sourceId],
    )
    const early = await claim(owner.browser, claimId, teamId)
    expect(early.status).toBe(409)
    expect(await early.json()).toEqual({ message: CLAIM_MESSAGES.notReady })
    await control.db.query(
      `update sources set state = 'active' where id = $1`,
      [sourceId],
    )

    // The team's synced sources, caught up and waiting live for the claim.
    const path = `/v1/sources?team_id=${teamId}`
    const first = await owner.browser.get(`${path}&offset=-1`)
    const handle = first.headers.get('electric-handle') ?? ''
    expect(((await first.json()) as Message[]).filter((m) => m.value)).toEqual(
      [],
    )
    const tail = await owner.browser.get(
      `${path}&offset=${first.headers.get('electric-offset')}&handle=${handle}`,
    )
    const live = owner.browser.get(
      `${path}&offset=${tail.headers.get('electric-offset')}&handle=${handle}&live=true`,
    )

    const won = await claim(owner.browser, claimId, teamId)
    expect(won.status).toBe(200)
    const answer = (await won.json()) as { txid: number }
    expect(answer).toEqual({
      source_id: sourceId,
      team_id: teamId,
      txid: expect.any(Number),
    })

    const body = (await (await live).json()) as Message[]
    expect(body[0]).toMatchObject({
      value: { id: sourceId, team_id: teamId },
      headers: { operation: 'insert', txids: [answer.txid] },
    })
    const row = await control.db.query<{ team_id: string }>(
      'select team_id from sources where id = $1',
      [sourceId],
    )
    expect(row.rows[0]?.team_id).toBe(teamId)
    expect(await eventNames(control.db, sourceId)).toContain(
      SOURCE_EVENTS.claimed,
    )

    // Once claimed, the link no longer hands out the secret, nor claims again.
    const after = claimableSourceSchema.parse((await claimState(claimId)).body)
    expect(after).toEqual({
      state: 'claimed',
      message: 'This source has already been claimed.',
      source: { source_id: sourceId },
    })
    expect((await claim(owner.browser, claimId, teamId)).status).toBe(404)
  }, 60_000)

  it('moves a source once when two claims race, into two teams', async () => {
    const { claimId, sourceId } = await readyClaim()
    const claimants = await Promise.all([
      signInLocally(server.app),
      signInLocally(server.app),
    ])
    const teams = await Promise.all(
      claimants.map((c) => personalTeam(control.db, c.user.id)),
    )
    // Hold the claim row, so both claims have read nothing before either may go on.
    const holder = await control.db.connect()
    let results: Response[]
    try {
      await holder.query('begin')
      await holder.query(
        'select 1 from claimable_sources where id = $1 for update',
        [claimId],
      )
      const racing = Promise.all(
        claimants.map((c, i) => claim(c.browser, claimId, teams[i] ?? '')),
      )
      await vi.waitFor(
        async () => {
          const { rows } = await control.db.query<{ n: number }>(
            `select count(*)::int as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`,
          )
          expect(rows[0]?.n).toBe(2)
        },
        { timeout: 10_000, interval: 20 },
      )
      await holder.query('commit')
      results = await racing
    } finally {
      holder.release()
    }
    expect(results.map((r) => r.status).sort()).toEqual([200, 404])
    const lost = results.find((r) => r.status === 404)
    expect(await lost?.json()).toEqual({
      message: CLAIM_MESSAGES.notClaimable,
    })
    const winner = teams[results.findIndex((r) => r.status === 200)]
    const { rows } = await control.db.query<{ team_id: string }>(
      'select team_id from sources where id = $1',
      [sourceId],
    )
    expect(rows[0]?.team_id).toBe(winner)
    expect(
      (await eventNames(control.db, sourceId)).filter(
        (e) => e === SOURCE_EVENTS.claimed,
      ),
    ).toHaveLength(1)
  }, 60_000)

  it("keeps the team's rules: no second source for a database, no more than its maximum", async () => {
    const owner = await signInLocally(server.app)
    const teamId = await personalTeam(control.db, owner.user.id)
    const first = await readyClaim()
    expect((await claim(owner.browser, first.claimId, teamId)).status).toBe(200)

    const again = await readyClaim(first.database)
    const duplicate = await claim(owner.browser, again.claimId, teamId)
    expect(duplicate.status).toBe(409)
    expect(await duplicate.json()).toEqual({
      message: ALREADY_REGISTERED_MESSAGE,
    })

    const small = buildApp(
      control.db,
      { MAX_SOURCES_PER_TEAM: '1' },
      { sourcePasswordKey: server.key },
    )
    const other = await readyClaim()
    const full = await new Browser(small).request(`${PATH}/claim`, {
      method: 'POST',
      headers: {
        origin: 'http://localhost',
        'content-type': 'application/json',
        cookie: owner.browser.jar.header('http://localhost/') ?? '',
      },
      body: JSON.stringify({ claimId: other.claimId, teamId }),
    })
    expect(full.status).toBe(409)
    expect(((await full.json()) as { message: string }).message).toContain(
      'already has 1 sources',
    )
    // Refused claims left both where they were.
    const { rows } = await control.db.query<{ n: number }>(
      `select count(*)::int as n from sources where id = any($1) and team_id is null`,
      [[again.sourceId, other.sourceId]],
    )
    expect(rows[0]?.n).toBe(2)
  }, 90_000)
})

describe('an unclaimed source past its time', () => {
  it('is removed: slot and publication dropped, its logs and row gone, the claim unknown', async () => {
    const { claimId, sourceId, database } = await readyClaim()
    expect(await replicationObjects(database, sourceId)).toBe(2)
    await control.db.query(
      `update claimable_sources set expires_at = now() - interval '1 second' where id = $1`,
      [claimId],
    )
    expect(await claimState(claimId)).toEqual({
      status: 404,
      body: { message: CLAIM_MESSAGES.notClaimable },
    })
    server.runtime.kick()
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
    expect((await claimState(claimId)).status).toBe(404)
  }, 60_000)
})
