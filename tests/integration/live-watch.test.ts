// POST /v1/watch: a browser profile's live requests waited on as one. It answers, at the first
// change, exactly those requests whose own answer would come at once; anything the server
// would not wait on (another team's shape, a wrong secret, a malformed request) at once; and it
// keeps the session's and the body's bounds.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ShapeDatabase } from '../../src/engine/database.ts'
import { Engine } from '../../src/engine/engine.ts'
import { parseProtocol } from '../../src/engine/http/request.ts'
import { whichWouldAnswer } from '../../src/engine/http/watch.ts'
import { dashboardShapes } from '../../src/server/gateway/definitions.ts'
import {
  LIVE_WATCH_MAX_REQUESTS,
  LIVE_WATCH_PATH,
} from '../../src/shared/live-watch.ts'
import { Browser, signInLocally, buildApp, type App } from '../support/app.ts'
import { useControlPlaneDatabase } from '../support/database.ts'

const database = useControlPlaneDatabase()
let engine: Engine
let shapes: ShapeDatabase
let app: App
let dataDir: string

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'sluice-watch-'))
  engine = new Engine({ dataDir })
  shapes = engine.attach(`watch_${Date.now()}`, database.url)
  app = buildApp(database.db, {}, { shapes })
  await vi.waitFor(() => expect(shapes.status).toBe('active'), {
    timeout: 30_000,
  })
}, 60_000)

afterAll(async () => {
  await shapes.destroy()
  await engine.stop()
  await rm(dataDir, { recursive: true, force: true })
})

/** The live request at the end of a dashboard shape, as the client would send it next. */
async function tailOf(browser: Browser, path: string): Promise<string> {
  const sep = path.includes('?') ? '&' : '?'
  let url = `${path}${sep}offset=-1`
  for (;;) {
    const response = await browser.get(url)
    expect(response.status, url).toBe(200)
    const handle = response.headers.get('electric-handle') ?? ''
    const offset = response.headers.get('electric-offset') ?? ''
    await response.text()
    url = `${path}${sep}offset=${offset}&handle=${handle}`
    if (response.headers.has('electric-up-to-date')) return `${url}&live=true`
  }
}

const watch = (browser: Browser, requests: unknown) =>
  browser.postJson(LIVE_WATCH_PATH, { requests })

async function answerOf(response: Response) {
  expect(response.status).toBe(200)
  return (await response.json()) as { ready: number[]; gone: number[] }
}
const readyOf = async (response: Response) => (await answerOf(response)).ready

async function userAndTeam() {
  const signedIn = await signInLocally(app, 'Watcher', undefined)
  const { rows } = await database.db.query<{ team_id: string }>(
    'select team_id from team_members where user_id = $1',
    [signedIn.user.id],
  )
  return { ...signedIn, teamId: rows[0]?.team_id ?? '' }
}

const renameTeam = (teamId: string, name: string) =>
  database.db.query('update teams set name = $2 where id = $1', [teamId, name])

describe('POST /v1/watch', () => {
  it('waits while nothing changed, then names only the requests a change would answer', async () => {
    const { browser, teamId } = await userAndTeam()
    const parkedBefore = shapes.waitingRequests()
    const requests = [
      await tailOf(browser, '/v1/user/me'),
      await tailOf(browser, '/v1/teams'),
      await tailOf(browser, `/v1/sources?team_id=${teamId}`),
    ]
    const pending = watch(browser, requests)
    let settled = false
    void pending.then(() => (settled = true))
    // Still waiting after the server has surely read the body and parked the watch.
    await vi.waitFor(() => expect(shapes.waitingRequests()).toBeGreaterThan(0))
    expect(settled).toBe(false)
    await renameTeam(teamId, 'Renamed')
    expect(await readyOf(await pending)).toEqual([1])
    // And the named request's own answer comes at once, with the change.
    const live = await browser.get(requests[1] ?? '')
    expect(await live.text()).toContain('Renamed')
    // Nothing left waiting on the shapes it watched.
    expect(shapes.waitingRequests()).toBe(parkedBefore)
  })

  it('answers at once when a request is already behind its shape', async () => {
    const { browser, teamId } = await userAndTeam()
    const teams = await tailOf(browser, '/v1/teams')
    await renameTeam(teamId, 'Moved on')
    await vi.waitFor(async () =>
      expect(await readyOf(await watch(browser, [teams]))).toEqual([0]),
    )
  })

  it("answers at once for what is not the user's: gone if its route would 404, else ready to ask", async () => {
    const owner = await userAndTeam()
    const stranger = await userAndTeam()
    const mine = await tailOf(stranger.browser, '/v1/teams')
    const theirs = `/v1/sources?team_id=${owner.teamId}&offset=0_0&handle=h&live=true`
    const malformed = '/v1/teams?offset=banana&live=true'
    const unknown = '/v1/nothing-here?offset=0_0&handle=h&live=true'
    const wrongSecret = `/v1/shape?source_id=${owner.teamId}&source_secret=no&table=t&offset=0_0&handle=h&live=true`
    expect(
      await answerOf(
        await watch(stranger.browser, [
          mine,
          theirs,
          malformed,
          unknown,
          wrongSecret,
        ]),
      ),
    ).toEqual({ ready: [2, 3, 4], gone: [1] })
    expect((await stranger.browser.get(theirs)).status).toBe(404)
    expect((await stranger.browser.get(malformed)).status).toBe(400)
    expect((await stranger.browser.get(wrongSecret)).status).toBe(401)
  })

  it('names a request gone when the change that woke it took it from the user', async () => {
    const { browser, teamId } = await userAndTeam()
    const { rows } = await database.db.query<{ id: string }>(
      `insert into sources (team_id, region, connection_url, source_secret)
       values ($1, 'us-east-1', 'postgres://u@db.example.com/app', 'secret-abcdef')
       returning id`,
      [teamId],
    )
    const sourceId = rows[0]?.id ?? ''
    await database.db.query(
      `insert into source_event_logs (source_id, event_name, instance_id) values ($1, 'created', 'i-1')`,
      [sourceId],
    )
    const log = await tailOf(
      browser,
      `/v1/source-event-logs?source_id=${sourceId}`,
    )
    const pending = watch(browser, [log])
    await vi.waitFor(() => expect(shapes.waitingRequests()).toBeGreaterThan(0))
    // Its event logs go with it (on delete cascade): the log's shape changes, and is no
    // longer the user's.
    await database.db.query('delete from sources where id = $1', [sourceId])
    expect(await answerOf(await pending)).toEqual({ ready: [], gone: [0] })
  })

  it('refuses bodies out of bounds, strangers and other origins', async () => {
    const { browser } = await userAndTeam()
    const tooMany = Array.from(
      { length: LIVE_WATCH_MAX_REQUESTS + 1 },
      () => '/v1/teams',
    )
    for (const requests of [
      [],
      tooMany,
      ['https://elsewhere.example/v1/teams'],
      'x',
    ])
      expect((await watch(browser, requests)).status).toBe(400)
    expect(
      (await browser.request(LIVE_WATCH_PATH, { method: 'POST', body: '{' }))
        .status,
    ).toBe(403)
    const crossSite = await browser.request(LIVE_WATCH_PATH, {
      method: 'POST',
      headers: {
        origin: 'https://evil.example',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ requests: ['/v1/teams'] }),
    })
    expect(crossSite.status).toBe(403)
    const huge = await browser.postJson(LIVE_WATCH_PATH, {
      requests: ['/v1/teams'],
      padding: 'x'.repeat(300 * 1024),
    })
    expect(huge.status).toBe(413)
  })

  it('serves a visitor too: the public status waits, a dashboard shape is left to its own 401', async () => {
    const { teamId } = await userAndTeam()
    const { rows } = await database.db.query<{ id: string }>(
      `insert into sources (team_id, region, connection_url, source_secret)
       values ($1, 'us-east-1', 'postgres://u@db.example.com/app', 'secret-abcdef')
       returning id`,
      [teamId],
    )
    const sourceId = rows[0]?.id ?? ''
    const visitor = new Browser(app)
    const status = await tailOf(
      visitor,
      `/api/public/source-status/${sourceId}`,
    )
    const teams = '/v1/teams?offset=0_0&handle=h&live=true'
    expect(await answerOf(await watch(visitor, [status, teams]))).toEqual({
      ready: [1],
      gone: [],
    })
    expect((await visitor.get(teams)).status).toBe(401)
    const pending = watch(visitor, [status])
    await vi.waitFor(() => expect(shapes.waitingRequests()).toBeGreaterThan(0))
    await database.db.query(
      `update sources set state = 'active' where id = $1`,
      [sourceId],
    )
    expect(await readyOf(await pending)).toEqual([0])
  })

  it('ends with the session: a logout answers a waiting watch 401', async () => {
    const { browser } = await userAndTeam()
    const pending = watch(browser, [await tailOf(browser, '/v1/teams')])
    await vi.waitFor(() => expect(shapes.waitingRequests()).toBeGreaterThan(0))
    const logout = await browser.postJson('/api/public/auth/logout')
    expect(logout.status).toBeLessThan(300)
    expect((await pending).status).toBe(401)
  })
})

describe('whichWouldAnswer', () => {
  it('gives up at its timeout with nothing to answer, and leaves nothing parked', async () => {
    const { browser, user } = await userAndTeam()
    const tail = new URL(await tailOf(browser, '/v1/user/me'), 'http://x')
    const request = parseProtocol(tail.searchParams, {})
    const before = shapes.waitingRequests()
    const answered = await whichWouldAnswer(
      [
        {
          database: shapes,
          definition: dashboardShapes.currentUser(user.id),
          request,
        },
      ],
      50,
    )
    expect(answered).toEqual([false])
    expect(shapes.waitingRequests()).toBe(before)
  })
})
