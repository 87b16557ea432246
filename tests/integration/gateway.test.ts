// The dashboard's shapes through the server: a member syncs exactly their own rows; others
// get 401 or 404; the public status shape carries no secrets.
import { describe, expect, it, vi } from 'vitest'
import { transactionWithTxid } from '../../src/server/platform/db/database.ts'
import { Browser, signInLocally } from '../support/app.ts'
import { useGatewayApp } from '../support/gateway-app.ts'

const gateway = useGatewayApp('gateway')
const database = gateway.database

type Message = {
  value?: Record<string, unknown>
  headers: Record<string, unknown>
}

async function snapshot(browser: Browser, path: string) {
  const sep = path.includes('?') ? '&' : '?'
  const first = await browser.get(`${path}${sep}offset=-1`)
  expect(first.status, path).toBe(200)
  const handle = first.headers.get('electric-handle') ?? ''
  const messages = (await first.json()) as Message[]
  const rows = messages.filter((m) => m.value).map((m) => m.value)
  return {
    response: first,
    handle,
    offset: first.headers.get('electric-offset') ?? '',
    rows,
    controls: messages.map((m) => m.headers.control).filter(Boolean),
  }
}

async function sourceFor(teamId: string) {
  const { rows } = await database.db.query<{ id: string }>(
    `insert into sources (team_id, region, connection_url, source_secret)
     values ($1, 'us-east-1', 'postgres://u@db.example.com/app', 'secret-abcdef')
     returning id`,
    [teamId],
  )
  const id = rows[0]?.id ?? ''
  await database.db.query(
    `insert into source_event_logs (source_id, event_name, instance_id) values ($1, 'created', 'i-1')`,
    [id],
  )
  return id
}

describe('the dashboard shapes', () => {
  it('give a signed-in member their user, teams, team users, sources and event logs', async () => {
    const { browser, user } = await signInLocally(
      gateway.app,
      'Grace',
      undefined,
    )
    const me = await snapshot(browser, '/v1/user/me')
    expect(me.rows).toEqual([
      expect.objectContaining({
        id: user.id,
        name: 'Grace',
        email: user.email,
      }),
    ])
    // Per-user answers (sources carry their secrets) are never stored: not in the browser's
    // HTTP cache, where they would outlive a sign-out, nor in any shared one.
    expect(me.response.headers.get('cache-control')).toBe('private, no-store')
    // Never cached, so the snapshot says at once that it is all there is: the dashboard's
    // shapes wait on each other's rows, and each saves a round trip.
    expect(me.controls).toEqual(['snapshot-end', 'up-to-date'])
    expect(me.response.headers.has('electric-up-to-date')).toBe(true)

    const teams = await snapshot(browser, '/v1/teams')
    expect(teams.rows).toEqual([
      { user_id: user.id, team_id: expect.any(String), name: "Grace's team" },
    ])
    const teamId = String(teams.rows[0]?.team_id)
    const members = await snapshot(browser, `/v1/team-users?team_id=${teamId}`)
    expect(members.rows).toEqual([
      { team_id: teamId, user_id: user.id, name: 'Grace', email: user.email },
    ])

    const sourceId = await sourceFor(teamId)
    const sources = await snapshot(browser, `/v1/sources?team_id=${teamId}`)
    expect(sources.rows).toHaveLength(1)
    expect(sources.rows[0]).not.toHaveProperty('encrypted_password')
    const logs = await snapshot(
      browser,
      `/v1/source-event-logs?source_id=${sourceId}`,
    )
    expect(logs.rows).toEqual([
      expect.objectContaining({ event_name: 'created', source_id: sourceId }),
    ])
  })

  it('keep team users live when a member renames themselves', async () => {
    const { browser, user } = await signInLocally(
      gateway.app,
      'Before',
      undefined,
    )
    const teams = await snapshot(browser, '/v1/teams')
    const teamId = String(teams.rows[0]?.team_id)
    const path = `/v1/team-users?team_id=${teamId}`
    const first = await snapshot(browser, path)
    const tail = await browser.get(
      `${path}&offset=${first.offset}&handle=${first.handle}`,
    )
    const offset = tail.headers.get('electric-offset') ?? ''
    const live = browser.get(
      `${path}&offset=${offset}&handle=${first.handle}&live=true`,
    )
    await database.db.query(`update users set name = 'After' where id = $1`, [
      user.id,
    ])
    const body = (await (await live).json()) as Message[]
    expect(body[0]).toMatchObject({
      value: { name: 'After' },
      headers: { operation: 'update' },
    })
  })

  it('answer 401 when signed out', async () => {
    const browser = new Browser(gateway.app)
    for (const path of [
      '/v1/user/me?offset=-1',
      '/v1/teams?offset=-1',
      '/v1/team-users?team_id=x&offset=-1',
      '/v1/sources?team_id=x&offset=-1',
      '/v1/source-event-logs?source_id=x&offset=-1',
    ])
      expect((await browser.get(path)).status, path).toBe(401)
  })

  it("answer 404 for another team's ids, and refuse a client-chosen definition", async () => {
    const owner = await signInLocally(gateway.app, 'Owner', undefined)
    const stranger = await signInLocally(gateway.app, 'Stranger', undefined)
    const teams = await snapshot(owner.browser, '/v1/teams')
    const teamId = String(teams.rows[0]?.team_id)
    const sourceId = await sourceFor(teamId)
    for (const path of [
      `/v1/team-users?team_id=${teamId}`,
      `/v1/sources?team_id=${teamId}`,
      `/v1/source-event-logs?source_id=${sourceId}`,
      '/v1/sources?team_id=not-a-uuid',
    ]) {
      const response = await stranger.browser.get(`${path}&offset=-1`)
      expect(response.status, path).toBe(404)
    }
    const sneaky = await owner.browser.get(
      `/v1/user/me?offset=-1&where=true&table=sources&queryable_columns=id`,
    )
    expect(sneaky.status).toBe(400)
    expect(await sneaky.json()).toMatchObject({
      errors: {
        where: ['is set by the server for this shape'],
        table: ['is set by the server for this shape'],
        queryable_columns: ['is set by the server for this shape'],
      },
    })
  })

  it('carry the txid a mutation returns, so the browser can wait for its write', async () => {
    const { browser } = await signInLocally(gateway.app, 'Writer', undefined)
    const teams = await snapshot(browser, '/v1/teams')
    const teamId = String(teams.rows[0]?.team_id)
    const path = '/v1/teams'
    const tail = await browser.get(
      `${path}?offset=${teams.offset}&handle=${teams.handle}`,
    )
    const offset = tail.headers.get('electric-offset') ?? ''
    const live = browser.get(
      `${path}?offset=${offset}&handle=${teams.handle}&live=true`,
    )
    const { txid } = await transactionWithTxid(database.db, (client) =>
      client.query(`update teams set name = 'Renamed' where id = $1`, [teamId]),
    )
    const body = (await (await live).json()) as Message[]
    expect(body[0]).toMatchObject({
      value: { name: 'Renamed' },
      headers: { txids: [txid] },
    })
  })

  it("carry a source's new name to its team with the txid the rename answers", async () => {
    const { browser } = await signInLocally(gateway.app, 'Namer', undefined)
    const teams = await snapshot(browser, '/v1/teams')
    const teamId = String(teams.rows[0]?.team_id)
    const sourceId = await sourceFor(teamId)
    const path = `/v1/sources?team_id=${teamId}`
    const first = await snapshot(browser, path)
    expect(first.rows[0]).toMatchObject({ id: sourceId, name: null })
    const tail = await browser.get(
      `${path}&offset=${first.offset}&handle=${first.handle}`,
    )
    const offset = tail.headers.get('electric-offset') ?? ''
    const live = browser.get(
      `${path}&offset=${offset}&handle=${first.handle}&live=true`,
    )
    const renamed = await browser.request(`/api/v1/sources/${sourceId}`, {
      method: 'PATCH',
      headers: { origin: browser.origin, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Orders' }),
    })
    expect(renamed.status).toBe(200)
    const { txid } = (await renamed.json()) as { txid: number }
    const body = (await (await live).json()) as Message[]
    expect(body[0]).toMatchObject({
      value: { id: sourceId, name: 'Orders' },
      headers: { txids: [txid] },
    })
  })

  it("carry a source's project and environment to its team, set and cleared", async () => {
    const { browser } = await signInLocally(gateway.app, 'Tagger', undefined)
    const teams = await snapshot(browser, '/v1/teams')
    const teamId = String(teams.rows[0]?.team_id)
    const sourceId = await sourceFor(teamId)
    const path = `/v1/sources?team_id=${teamId}`
    const first = await snapshot(browser, path)
    expect(first.rows[0]).toMatchObject({
      id: sourceId,
      project: null,
      environment: null,
    })
    const patch = async (body: Record<string, unknown>) => {
      const answer = await browser.request(`/api/v1/sources/${sourceId}`, {
        method: 'PATCH',
        headers: { origin: browser.origin, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      expect(answer.status).toBe(200)
      return ((await answer.json()) as { txid: number }).txid
    }
    let at = await browser.get(
      `${path}&offset=${first.offset}&handle=${first.handle}`,
    )
    for (const [body, expected] of [
      [
        { project: 'my-app', environment: 'pr-123' },
        { project: 'my-app', environment: 'pr-123' },
      ],
      // An update carries the columns it changed.
      [{ project: null }, { project: null }],
    ] as const) {
      const offset = at.headers.get('electric-offset') ?? ''
      const live = browser.get(
        `${path}&offset=${offset}&handle=${first.handle}&live=true`,
      )
      const txid = await patch(body)
      at = await live
      const messages = (await at.json()) as Message[]
      expect(messages[0]).toMatchObject({
        value: { id: sourceId, ...expected },
        headers: { txids: [txid] },
      })
    }
  })

  it("carry a team's setup forms to its members with the txid of each write", async () => {
    const { browser } = await signInLocally(gateway.app, 'Linker', undefined)
    const teams = await snapshot(browser, '/v1/teams')
    const teamId = String(teams.rows[0]?.team_id)
    const path = `/v1/source-setup-forms?team_id=${teamId}`
    const first = await snapshot(browser, path)
    expect(first.rows).toEqual([])
    const tail = await browser.get(
      `${path}&offset=${first.offset}&handle=${first.handle}`,
    )
    const offset = tail.headers.get('electric-offset') ?? ''
    const live = browser.get(
      `${path}&offset=${offset}&handle=${first.handle}&live=true`,
    )
    const created = await browser.postJson(
      `/api/v1/teams/${teamId}/source-setup-forms`,
      { region: 'us-east-1' },
    )
    expect(created.status).toBe(201)
    const { id, txid } = (await created.json()) as { id: string; txid: number }
    const body = (await (await live).json()) as Message[]
    expect(body[0]).toMatchObject({
      value: { id, team_id: teamId, region: 'us-east-1', used_at: null },
      headers: { operation: 'insert', txids: [txid] },
    })
    const stranger = await signInLocally(gateway.app, 'Outsider', undefined)
    expect((await stranger.browser.get(`${path}&offset=-1`)).status).toBe(404)
    expect(
      (await new Browser(gateway.app).get(`${path}&offset=-1`)).status,
    ).toBe(401)
  })

  it("carry a team's alert destinations and delivery log to its members, never a secret", async () => {
    const { browser } = await signInLocally(gateway.app, 'Alerter', undefined)
    const teams = await snapshot(browser, '/v1/teams')
    const teamId = String(teams.rows[0]?.team_id)
    const created = await browser.postJson(
      `/api/v1/teams/${teamId}/alert-destinations`,
      { url: 'https://127.0.0.1/hook' },
    )
    expect(created.status).toBe(201)
    const { id, secret } = (await created.json()) as {
      id: string
      secret: string
    }
    await database.db.query(
      `with d as (
         insert into alert_deliveries (team_id, destination_id, event, state, payload)
         values ($1, $2, 'test_alert', 'firing', '{}') returning id)
       insert into alert_delivery_attempts
         (team_id, delivery_id, destination_id, event, state, attempt, status_code, delivered)
       select $1, d.id, $2, 'test_alert', 'firing', 1, 200, true from d`,
      [teamId, id],
    )
    const destinations = await snapshot(
      browser,
      `/v1/alert-destinations?team_id=${teamId}`,
    )
    expect(destinations.rows).toEqual([
      expect.objectContaining({
        id,
        team_id: teamId,
        url: 'https://127.0.0.1/hook',
      }),
    ])
    expect(Object.keys(destinations.rows[0] ?? {})).not.toContain(
      'encrypted_secret',
    )
    expect(JSON.stringify(destinations.rows)).not.toContain(secret)
    const attempts = await snapshot(
      browser,
      `/v1/alert-delivery-attempts?team_id=${teamId}`,
    )
    expect(attempts.rows).toEqual([
      expect.objectContaining({
        destination_id: id,
        event: 'test_alert',
        // Values travel as Postgres text; the browser store types them.
        attempt: '1',
        status_code: '200',
        delivered: 't',
      }),
    ])
    const stranger = await signInLocally(gateway.app, 'Outsider', undefined)
    for (const path of ['alert-destinations', 'alert-delivery-attempts']) {
      const url = `/v1/${path}?team_id=${teamId}&offset=-1`
      expect((await stranger.browser.get(url)).status).toBe(404)
      expect((await new Browser(gateway.app).get(url)).status).toBe(401)
    }
  })

  it('serve a public source status with only the fields that derive its state', async () => {
    const owner = await signInLocally(gateway.app, 'Public', undefined)
    const teams = await snapshot(owner.browser, '/v1/teams')
    const sourceId = await sourceFor(String(teams.rows[0]?.team_id))
    const status = await snapshot(
      new Browser(gateway.app),
      `/api/public/source-status/${sourceId}`,
    )
    expect(status.rows).toEqual([
      {
        id: sourceId,
        state: 'initializing',
        deleted_at: null,
        target_electric_url: null,
      },
    ])
    // A shared answer's first chunk is cached for long: it never claims a moment (its
    // snapshot-end says which transactions the snapshot holds, not how recent it is).
    expect(status.controls).toEqual(['snapshot-end'])
    expect(status.response.headers.has('electric-up-to-date')).toBe(false)
    const missing = await new Browser(gateway.app).get(
      '/api/public/source-status/nope?offset=-1',
    )
    expect(missing.status).toBe(404)
  })
})

describe("a live request's session", () => {
  async function openLongPoll(browser: Browser, extra = '', liveText = 'true') {
    const path = '/v1/user/me'
    const first = await snapshot(browser, path)
    const tail = await browser.get(
      `${path}?offset=${first.offset}&handle=${first.handle}`,
    )
    const offset = tail.headers.get('electric-offset') ?? ''
    const live = browser.get(
      `${path}?offset=${offset}&handle=${first.handle}&live=${liveText}${extra}`,
    )
    // Parked at the shape's tail, past every check made when it arrived.
    await vi.waitFor(() =>
      expect(gateway.shapes.byHandle(first.handle)?.waitingRequests).toBe(1),
    )
    return { live }
  }
  const rename = (userId: string, name: string) =>
    database.db.query('update users set name = $2 where id = $1', [
      userId,
      name,
    ])

  it('ends at logout: an open long-poll answers 401, never a row written after', async () => {
    const { browser, user } = await signInLocally(
      gateway.app,
      'Leaving',
      undefined,
    )
    const { live } = await openLongPoll(browser)
    expect((await browser.postJson('/api/public/auth/logout')).status).toBe(200)
    await rename(user.id, 'Written after logout')
    const response = await live
    expect(response.status).toBe(401)
    expect(await response.text()).not.toContain('Written after logout')
  })

  it('answers an SSE request as a long-poll, which ends at logout too: a stream would outlive the session', async () => {
    const { browser, user } = await signInLocally(
      gateway.app,
      'Streaming',
      undefined,
    )
    const { live } = await openLongPoll(browser, '&live_sse=true')
    expect((await browser.postJson('/api/public/auth/logout')).status).toBe(200)
    await rename(user.id, 'Streamed after logout')
    const response = await live
    expect(response.status).toBe(401)
    expect(await response.text()).not.toContain('Streamed after logout')
  })

  it('ends when the session expires during the long-poll', async () => {
    const { browser, user } = await signInLocally(
      gateway.app,
      'Expiring',
      undefined,
    )
    const { live } = await openLongPoll(browser)
    await database.db.query(
      'update sessions set expires_at = now() where user_id = $1',
      [user.id],
    )
    await rename(user.id, 'Written after expiry')
    const response = await live
    expect(response.status).toBe(401)
    expect(await response.text()).not.toContain('Written after expiry')
  })

  // The engine waits on any `live` but `false`: the re-check must read it the same way.
  it.each(['1', 'yes'])(
    'ends when the session expires during a long-poll sent as live=%s',
    async (text) => {
      const { browser, user } = await signInLocally(
        gateway.app,
        'Spelled',
        undefined,
      )
      const { live } = await openLongPoll(browser, '', text)
      await database.db.query(
        'update sessions set expires_at = now() where user_id = $1',
        [user.id],
      )
      await rename(user.id, `Written after expiry (live=${text})`)
      const response = await live
      expect(response.status).toBe(401)
      expect(await response.text()).not.toContain('Written after expiry')
    },
  )
})
