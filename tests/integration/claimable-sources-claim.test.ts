// Claiming a claimable source against real Postgres: a signed-in member of the team, a ready
// source, once even when two claims race, within the team's rules; the team's synced `sources`
// shape receives it as an insert, and the link no longer hands out the secret.
import { describe, expect, it, vi } from 'vitest'
import {
  CLAIM_MESSAGES,
  claimableSourceSchema,
} from '../../src/shared/claimable-sources.ts'
import {
  ALREADY_REGISTERED_MESSAGE,
  SOURCE_EVENTS,
} from '../../src/shared/sources.ts'
import { Browser, buildApp, keysWith, signInLocally } from '../support/app.ts'
import {
  claim,
  CLAIMABLE_PATH,
  useClaimableServer,
} from '../support/claimable.ts'
import { useControlPlaneDatabase } from '../support/database.ts'
import { eventNames, personalTeam } from '../support/sources.ts'

const control = useControlPlaneDatabase()
const api = useClaimableServer(control)

type Message = {
  value?: Record<string, unknown>
  headers: Record<string, unknown>
}

describe('claiming', () => {
  it('needs a signed-in member, a ready source, and moves it once, live into the team', async () => {
    const { claimId, sourceId } = await api.readyClaim()
    const owner = await signInLocally(api.server.app)
    const teamId = await personalTeam(control.db, owner.user.id)

    const anonymous = await claim(new Browser(api.server.app), claimId, teamId)
    expect(anonymous.status).toBe(401)
    expect(await anonymous.json()).toEqual({
      message: CLAIM_MESSAGES.signedOut,
    })
    // Claiming uses the session: the same-origin rule still guards it.
    const crossSite = await owner.browser.request(`${CLAIMABLE_PATH}/claim`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ claimId, teamId }),
    })
    expect(crossSite.status).toBe(403)

    const stranger = await signInLocally(api.server.app)
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
    // The creator's address counted its share of unclaimed sources; claimed, it is not kept.
    const creator = await control.db.query<{ created_by_ip: string | null }>(
      'select created_by_ip from claimable_sources where id = $1',
      [claimId],
    )
    expect(creator.rows).toEqual([{ created_by_ip: null }])

    // Once claimed, the link no longer hands out the secret, nor claims again.
    const after = claimableSourceSchema.parse(
      (await api.claimState(claimId)).body,
    )
    expect(after).toEqual({
      state: 'claimed',
      message: 'This source has already been claimed.',
      source: { source_id: sourceId },
    })
    expect((await claim(owner.browser, claimId, teamId)).status).toBe(404)
  }, 60_000)

  it('moves a source once when two claims race, into two teams', async () => {
    const { claimId, sourceId } = await api.readyClaim()
    const claimants = await Promise.all([
      signInLocally(api.server.app),
      signInLocally(api.server.app),
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
    const owner = await signInLocally(api.server.app)
    const teamId = await personalTeam(control.db, owner.user.id)
    const first = await api.readyClaim()
    expect((await claim(owner.browser, first.claimId, teamId)).status).toBe(200)

    const again = await api.readyClaim(first.database)
    const duplicate = await claim(owner.browser, again.claimId, teamId)
    expect(duplicate.status).toBe(409)
    expect(await duplicate.json()).toEqual({
      message: ALREADY_REGISTERED_MESSAGE,
    })

    const small = buildApp(
      control.db,
      { MAX_SOURCES_PER_TEAM: '1' },
      { keys: keysWith(api.server.key) },
    )
    const other = await api.readyClaim()
    const full = await new Browser(small).request(`${CLAIMABLE_PATH}/claim`, {
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

  it('rotates the secret: the one the link handed out reads nothing once the source is claimed', async () => {
    const { claimId, sourceId, database } = await api.readyClaim()
    const linked = claimableSourceSchema.parse(
      (await api.claimState(claimId)).body,
    )
    const before = linked.source.secret ?? ''
    await database.db.query('create table todos (id int primary key)')
    const read = (secret: string) =>
      fetch(
        `${api.server.origin}/v1/shape?table=todos&offset=-1&source_id=${sourceId}&source_secret=${encodeURIComponent(secret)}`,
      )
    expect((await read(before)).status).toBe(200)

    const owner = await signInLocally(api.server.app)
    const teamId = await personalTeam(control.db, owner.user.id)
    expect((await claim(owner.browser, claimId, teamId)).status).toBe(200)

    expect((await read(before)).status).toBe(401)
    // The secret the team's dashboard shows now is the one that reads.
    const mine = (await (
      await owner.browser.get('/api/v1/sources')
    ).json()) as {
      id: string
      source_secret: string
    }[]
    const after = mine.find((s) => s.id === sourceId)?.source_secret ?? ''
    expect(after).not.toBe(before)
    expect((await read(after)).status).toBe(200)
  }, 60_000)
})
