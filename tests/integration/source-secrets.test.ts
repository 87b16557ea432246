// A source's secret at /v1/shape: under the dashboard's name (`source_secret`), Electric
// Cloud's (`secret`) and Electric's legacy one (`api_secret`), with the same answers; rotated
// without downtime (the previous secret opens the source through its grace, then 401), the
// grace ended early, and rotation refused for what the caller may not touch.
import { ShapeStream, type Message, type Row } from '@electric-sql/client'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { signInLocally, type Browser } from '../support/app.ts'
import { useControlPlaneDatabase } from '../support/database.ts'
import {
  createSourceDatabase,
  eventNames,
  insertSource,
  personalTeam,
  sourceRow,
  startSourceServer,
  type SourceDatabase,
  type SourceServer,
} from '../support/sources.ts'

const control = useControlPlaneDatabase()
// A short grace, so the test sees the previous secret work and then stop.
const GRACE = '3s'
let server: SourceServer
let owner: Browser
let stranger: Browser
let database: SourceDatabase
let source: { id: string; secret: string }

beforeAll(async () => {
  server = await startSourceServer(
    control.db,
    {},
    { vars: { SECRET_ROTATION_GRACE: GRACE } },
  )
  const signedIn = await signInLocally(server.app)
  owner = signedIn.browser
  stranger = (await signInLocally(server.app, 'Other')).browser
  database = await createSourceDatabase()
  await database.db.query(
    'create table items (id int primary key, title text not null)',
  )
  await database.db.query(`insert into items values (1, 'one'), (2, 'two')`)
  source = await insertSource(
    control.db,
    server.key,
    await personalTeam(control.db, signedIn.user.id),
    database.url,
  )
  await vi.waitFor(
    async () =>
      expect((await sourceRow(control.db, source.id))?.state).toBe('active'),
    { timeout: 20_000, interval: 50 },
  )
}, 60_000)

afterAll(async () => {
  await server?.stop()
  await database?.drop()
})

const shape = (credentials: Record<string, string>, offset = '-1') =>
  fetch(
    `${server.origin}/v1/shape?${new URLSearchParams({ table: 'items', offset, source_id: source.id, ...credentials })}`,
  )

type Rotated = {
  source_secret: string
  previous_valid_until: string
  txid: number
}

async function rotate(): Promise<Rotated> {
  const answer = await owner.postJson(
    `/api/v1/sources/${source.id}/rotate-secret`,
  )
  expect(answer.status).toBe(200)
  return (await answer.json()) as Rotated
}

describe('the secret under each of its names', () => {
  it('opens the source with the same answer as source_secret, secret or api_secret', async () => {
    const answers = await Promise.all(
      ['source_secret', 'secret', 'api_secret'].map(async (name) => {
        const response = await shape({ [name]: source.secret })
        return {
          status: response.status,
          handle: response.headers.get('electric-handle'),
          offset: response.headers.get('electric-offset'),
          body: await response.json(),
        }
      }),
    )
    expect(answers[0]?.status).toBe(200)
    expect(answers[1]).toEqual(answers[0])
    expect(answers[2]).toEqual(answers[0])
    for (const name of ['source_secret', 'secret', 'api_secret']) {
      const wrong = await shape({ [name]: `${source.secret}x` })
      expect(wrong.status).toBe(401)
    }
    // Several given: the first of secret, source_secret, api_secret is judged alone.
    expect(
      (await shape({ secret: 'wrong', source_secret: source.secret })).status,
    ).toBe(401)
    expect(
      (await shape({ source_secret: source.secret, api_secret: 'wrong' }))
        .status,
    ).toBe(200)
    // A credential never reaches the engine as a shape parameter.
    expect(answers[0]?.handle).not.toContain(source.secret)
  })
})

describe('rotation', () => {
  it('keeps the previous secret working through its grace, a client streaming across it, then 401', async () => {
    const messages: Message<Row>[] = []
    const errors: unknown[] = []
    const aborter = new AbortController()
    const stream = new ShapeStream({
      url: `${server.origin}/v1/shape`,
      params: { table: 'items', source_id: source.id, secret: source.secret },
      signal: aborter.signal,
      onError: (error) => {
        errors.push(error)
      },
    })
    stream.subscribe((batch) => {
      messages.push(...batch)
    })
    const rowsSeen = () => messages.filter((m) => 'key' in m).length
    await vi.waitFor(() => expect(rowsSeen()).toBe(2), { timeout: 10_000 })

    const before = Date.now()
    const rotated = await rotate()
    expect(rotated.source_secret).not.toBe(source.secret)
    const until = Date.parse(rotated.previous_valid_until)
    expect(until).toBeGreaterThan(before + 2_000)
    expect(until).toBeLessThan(Date.now() + 4_000)
    expect(await eventNames(control.db, source.id)).toContain('secret_rotated')

    // Within the grace: the client goes on with the old secret, the new one opens too.
    await database.db.query(`insert into items values (3, 'three')`)
    await vi.waitFor(() => expect(rowsSeen()).toBe(3), { timeout: 10_000 })
    expect(errors).toEqual([])
    expect((await shape({ secret: rotated.source_secret })).status).toBe(200)
    expect((await shape({ secret: source.secret })).status).toBe(200)

    // After it: the old secret answers 401, and only once its time has come.
    await vi.waitFor(
      async () =>
        expect((await shape({ secret: source.secret })).status).toBe(401),
      { timeout: 10_000, interval: 100 },
    )
    expect(Date.now()).toBeGreaterThanOrEqual(until)
    expect((await shape({ secret: rotated.source_secret })).status).toBe(200)
    // The streaming client's next request is refused too.
    await database.db.query(`insert into items values (4, 'four')`)
    await vi.waitFor(
      () =>
        expect(errors).toContainEqual(expect.objectContaining({ status: 401 })),
      { timeout: 30_000 },
    )
    aborter.abort()
    source.secret = rotated.source_secret
  })

  it('ends the grace early on request', async () => {
    const rotated = await rotate()
    expect((await shape({ source_secret: source.secret })).status).toBe(200)
    const ended = await owner.request(
      `/api/v1/sources/${source.id}/previous-secret`,
      { method: 'DELETE', headers: { origin: owner.origin } },
    )
    expect(ended.status).toBe(200)
    expect(await ended.json()).toMatchObject({ id: source.id })
    expect((await shape({ source_secret: source.secret })).status).toBe(401)
    expect((await shape({ secret: rotated.source_secret })).status).toBe(200)
    expect(await eventNames(control.db, source.id)).toContain(
      'previous_secret_ended',
    )
    source.secret = rotated.source_secret
  })

  it('keeps one previous secret: rotating again ends the older one at once', async () => {
    const first = source.secret
    const second = await rotate()
    const third = await rotate()
    expect((await shape({ secret: first })).status).toBe(401)
    expect((await shape({ secret: second.source_secret })).status).toBe(200)
    expect((await shape({ secret: third.source_secret })).status).toBe(200)
    source.secret = third.source_secret
  })

  it('reads the secrets that open the source, the previous one only within its grace', async () => {
    const rotated = await rotate()
    const read = await owner.get(`/api/v1/sources/${source.id}/secret`)
    expect(read.status).toBe(200)
    expect(await read.json()).toEqual({
      id: source.id,
      source_secret: rotated.source_secret,
      previous_source_secret: source.secret,
      previous_valid_until: rotated.previous_valid_until,
    })
    const one = await owner.get(`/api/v1/sources/${source.id}`)
    expect(await one.json()).toMatchObject({
      id: source.id,
      source_secret: rotated.source_secret,
      previous_secret_valid_until: expect.any(String),
    })
    await owner.request(`/api/v1/sources/${source.id}/previous-secret`, {
      method: 'DELETE',
      headers: { origin: owner.origin },
    })
    expect(
      await (await owner.get(`/api/v1/sources/${source.id}/secret`)).json(),
    ).toMatchObject({
      previous_source_secret: null,
      previous_valid_until: null,
    })
    source.secret = rotated.source_secret
  })

  it('is refused for another team’s source as for a missing one', async () => {
    for (const path of ['', '/secret'])
      expect(
        (await stranger.get(`/api/v1/sources/${source.id}${path}`)).status,
      ).toBe(404)
    for (const path of ['rotate-secret', 'previous-secret']) {
      const answer = await stranger.request(
        `/api/v1/sources/${source.id}/${path}`,
        {
          method: path === 'rotate-secret' ? 'POST' : 'DELETE',
          headers: { origin: stranger.origin },
        },
      )
      expect(answer.status).toBe(404)
    }
    expect((await shape({ secret: source.secret })).status).toBe(200)
  })
})
