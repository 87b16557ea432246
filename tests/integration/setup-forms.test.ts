// Setup links: a team's members make, list and delete them; anyone holding one reads it and
// uses it once (against real databases), under concurrency too; what a used, deleted or
// expired form, a preset region, the address guard, the team's limits and the per-IP rate
// answer. No answer or log line carries a password (sources-api.ts).
import { randomUUID } from 'node:crypto'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { SETUP_FORM_MAX_LIVE_PER_TEAM } from '../../src/shared/constants.ts'
import { ALREADY_REGISTERED_MESSAGE } from '../../src/shared/sources.ts'
import { Browser, type App } from '../support/app.ts'
import { clearRateLimits } from '../support/database.ts'
import { urlFor, useSourcesApi, type Answer } from '../support/sources-api.ts'

const api = useSourcesApi()
// Every in-process request comes from one address: the per-IP limit gets its own test.
const roomy = {
  databaseChecks: {
    limits: { perIp: 1000, windowMs: 60_000, concurrent: 8 },
  },
}
let app: App
beforeAll(() => {
  app = api.buildApp({}, roomy)
})
// The roomy app's checks count against the address the per-IP test's strict app limits.
beforeEach(() => clearRateLimits(api.db))

const formsPath = (teamId: string) =>
  `/api/v1/teams/${teamId}/source-setup-forms`

async function createForm(
  browser: Browser,
  teamId: string,
  body: unknown = {},
): Promise<Answer> {
  return api.send(browser, 'POST', formsPath(teamId), body)
}

/** A signed-in member's new form; answers its id. */
async function newForm(body: unknown = {}, on: App = app) {
  const member = await api.signIn(on)
  const created = await createForm(member.browser, member.teamId, body)
  expect(created.status).toBe(201)
  return { ...member, formId: String(created.body.id) }
}

/** A signed-out visitor's use of a form, as the setup page sends it. */
function use(formId: string, body: unknown, on: App = app): Promise<Answer> {
  return api.send(
    new Browser(on),
    'POST',
    `/api/public/source-setup-forms/${formId}/use`,
    body,
  )
}

async function formRow(formId: string) {
  const { rows } = await api.db.query<{
    used_at: Date | null
    source_id: string | null
    deleted_at: Date | null
  }>(
    'select used_at, source_id, deleted_at from source_setup_forms where id = $1',
    [formId],
  )
  return rows[0]
}

describe("a team's setup forms", () => {
  it('are made, listed and deleted by its members, with the link and txid', async () => {
    const { browser, teamId } = await api.signIn(app)
    const before = Date.now()
    const created = await createForm(browser, teamId)
    expect(created.status).toBe(201)
    const id = String(created.body.id)
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: `http://localhost/setup/${id}`,
      region: null,
      expires_at: expect.any(String),
      txid: expect.any(Number),
    })
    const expires = Date.parse(String(created.body.expires_at))
    const week = 7 * 24 * 3600 * 1000
    expect(expires - before).toBeGreaterThan(week - 60_000)
    expect(expires - before).toBeLessThan(week + 60_000)

    const preset = await createForm(browser, teamId, {
      region: 'us-east-1',
      expires_in_days: 30,
    })
    expect(preset.status).toBe(201)
    expect(preset.body.region).toBe('us-east-1')
    for (const bad of [
      { expires_in_days: 31 },
      { expires_in_days: 0 },
      { expires_in_days: 1.5 },
      { region: 'ca-west-1' },
      { surprise: true },
    ]) {
      const refused = await createForm(browser, teamId, bad)
      expect(refused.status, JSON.stringify(bad)).toBe(400)
    }

    const listed = await api.send(browser, 'GET', formsPath(teamId), undefined)
    expect(listed.status).toBe(200)
    const forms = listed.body as unknown as Record<string, unknown>[]
    expect(forms.map((f) => f.id)).toEqual([preset.body.id, id])
    expect(forms[1]).toEqual({
      id,
      team_id: teamId,
      region: null,
      created_by: expect.any(String),
      created_at: expect.any(String),
      expires_at: created.body.expires_at,
      used_at: null,
      source_id: null,
      deleted_at: null,
      url: `http://localhost/setup/${id}`,
    })

    const deleted = await api.send(
      browser,
      'DELETE',
      `${formsPath(teamId)}/${id}`,
      undefined,
    )
    expect(deleted.status).toBe(200)
    expect(deleted.body).toEqual({ txid: expect.any(Number) })
    expect((await formRow(id))?.deleted_at).toBeInstanceOf(Date)
    const missing = await api.send(
      browser,
      'DELETE',
      `${formsPath(teamId)}/${randomUUID()}`,
      undefined,
    )
    expect(missing.status).toBe(404)
  })

  it('answer 404 to anyone not in the team, and touch nothing', async () => {
    const owner = await newForm()
    const stranger = await api.signIn(app)
    for (const teamId of [owner.teamId, randomUUID(), 'not-a-uuid']) {
      for (const [method, path] of [
        ['POST', formsPath(teamId)],
        ['GET', formsPath(teamId)],
        ['DELETE', `${formsPath(teamId)}/${owner.formId}`],
      ] as const) {
        const answer = await api.send(
          stranger.browser,
          method,
          path,
          method === 'POST' ? {} : undefined,
        )
        expect(answer.status, `${method} ${path}`).toBe(404)
        expect(answer.body).toEqual({ message: 'Team not found' })
      }
    }
    // Their own team's path does not reach another team's form either.
    const viaOwnTeam = await api.send(
      stranger.browser,
      'DELETE',
      `${formsPath(stranger.teamId)}/${owner.formId}`,
      undefined,
    )
    expect(viaOwnTeam.status).toBe(404)
    expect((await formRow(owner.formId))?.deleted_at).toBeNull()
    const signedOut = await new Browser(app).get(formsPath(owner.teamId))
    expect(signedOut.status).toBe(401)
  })

  it(`stop at ${SETUP_FORM_MAX_LIVE_PER_TEAM} usable forms with a 409`, async () => {
    const { browser, teamId } = await api.signIn(app)
    await api.db.query(
      `insert into source_setup_forms (id, team_id, expires_at)
       select gen_random_uuid(), $1, now() + interval '1 day'
         from generate_series(1, $2)`,
      [teamId, SETUP_FORM_MAX_LIVE_PER_TEAM],
    )
    const full = await createForm(browser, teamId)
    expect(full.status).toBe(409)
    expect(full.body.message).toBe(
      `This team already has ${SETUP_FORM_MAX_LIVE_PER_TEAM} usable setup links, the most it can have. Delete one to create another.`,
    )
    // Deleted (or used, or expired) ones no longer count.
    await api.db.query(
      `update source_setup_forms set deleted_at = now()
        where id = (select id from source_setup_forms where team_id = $1 limit 1)`,
      [teamId],
    )
    expect((await createForm(browser, teamId)).status).toBe(201)
  })
})

describe('a setup form read by its link', () => {
  it('answers only what the page needs, and 404 for no such form', async () => {
    const { formId } = await newForm({ region: 'eu-west-1' })
    const visitor = new Browser(app)
    const read = await visitor.get(`/api/public/source-setup-forms/${formId}`)
    expect(read.status).toBe(200)
    expect(await read.json()).toEqual({
      id: formId,
      region: 'eu-west-1',
      expires_at: expect.any(String),
      used_at: null,
      deleted_at: null,
    })
    for (const id of [randomUUID(), 'not-a-uuid']) {
      const missing = await visitor.get(`/api/public/source-setup-forms/${id}`)
      expect(missing.status).toBe(404)
      expect(await missing.json()).toEqual({
        message: 'Setup form not found',
      })
    }
  })
})

describe('using a setup form', () => {
  it("adds the database to the form's team once, and answers id and secret exactly", async () => {
    const { browser, teamId, formId } = await newForm()
    const database = await api.readyDatabase()
    const used = await use(formId, {
      database_url: database.url,
      region: 'eu-west-1',
    })
    expect(used.status).toBe(201)
    expect(used.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      source_secret: expect.any(String),
    })
    const row = await api.sourceRow(used.body.id)
    expect(row).toMatchObject({
      team_id: teamId,
      region: 'eu-west-1',
      source_secret: used.body.source_secret,
    })
    expect(row.connection_url).not.toContain(database.user.password)
    expect(await formRow(formId)).toMatchObject({
      used_at: expect.any(Date),
      source_id: used.body.id,
    })
    const read = await new Browser(app).get(
      `/api/public/source-setup-forms/${formId}`,
    )
    expect(await read.json()).toMatchObject({ used_at: expect.any(String) })
    const listed = await api.send(browser, 'GET', formsPath(teamId), undefined)
    expect(listed.body).toEqual([
      expect.objectContaining({ id: formId, source_id: used.body.id }),
    ])

    const again = await use(formId, {
      database_url: (await api.readyDatabase()).url,
      region: 'eu-west-1',
    })
    expect(again.status).toBe(410)
    expect(again.body).toEqual({
      message: 'This setup form has already been used.',
    })
    expect(await api.teamSources(teamId)).toBe(1)
  })

  it('is used once when two submits arrive at once, whatever their databases', async () => {
    for (const sameDatabase of [true, false]) {
      const { teamId, formId } = await newForm()
      const first = await api.readyDatabase()
      const second = sameDatabase ? first : await api.readyDatabase()
      const answers = await Promise.all(
        [first, second].map((database) =>
          use(formId, { database_url: database.url, region: 'eu-west-1' }),
        ),
      )
      const statuses = answers.map((a) => a.status).sort()
      expect(statuses, `same database: ${sameDatabase}`).toEqual([201, 410])
      const loser = answers.find((a) => a.status === 410)
      expect(loser?.body).toEqual({
        message: 'This setup form has already been used.',
      })
      const winner = answers.find((a) => a.status === 201)
      expect(await api.teamSources(teamId)).toBe(1)
      expect((await formRow(formId))?.source_id).toBe(winner?.body.id)
    }
  })

  it('is refused once deleted or expired, with the form left as it was', async () => {
    const deleted = await newForm()
    const removed = await api.send(
      deleted.browser,
      'DELETE',
      `${formsPath(deleted.teamId)}/${deleted.formId}`,
      undefined,
    )
    expect(removed.status).toBe(200)
    const database = await api.readyDatabase()
    const body = { database_url: database.url, region: 'eu-west-1' }
    const afterDelete = await use(deleted.formId, body)
    expect(afterDelete.status).toBe(410)
    expect(afterDelete.body).toEqual({
      message: 'This setup form has been deleted.',
    })

    const expired = await newForm()
    await api.db.query(
      `update source_setup_forms
          set created_at = now() - interval '2 days', expires_at = now() - interval '1 second'
        where id = $1`,
      [expired.formId],
    )
    const afterExpiry = await use(expired.formId, body)
    expect(afterExpiry.status).toBe(410)
    expect(afterExpiry.body).toEqual({
      message: 'This setup form has expired.',
    })
    expect(await api.teamSources(deleted.teamId)).toBe(0)
    expect(await api.teamSources(expired.teamId)).toBe(0)
    expect((await formRow(expired.formId))?.used_at).toBeNull()
    expect(
      (await use(randomUUID(), body)).status,
      'a form that does not exist',
    ).toBe(404)
  })

  it('keeps to a preset region and a selectable one', async () => {
    const { teamId, formId } = await newForm({ region: 'us-east-1' })
    const database = await api.readyDatabase()
    const elsewhere = await use(formId, {
      database_url: database.url,
      region: 'eu-west-1',
    })
    expect(elsewhere.status).toBe(400)
    expect(elsewhere.body).toEqual({
      message: 'region: this setup form is for us-east-1',
    })
    const unselectable = await use(formId, {
      database_url: database.url,
      region: 'ca-west-1',
    })
    expect(unselectable.status).toBe(400)
    expect(unselectable.body.message).toMatch(/^region: /)
    const used = await use(formId, {
      database_url: database.url,
      region: 'us-east-1',
    })
    expect(used.status).toBe(201)
    expect((await api.sourceRow(used.body.id)).region).toBe('us-east-1')
    expect(await api.teamSources(teamId)).toBe(1)
  })

  it('refuses bad URLs and databases that are not ready, leaving the form unused', async () => {
    const { teamId, formId } = await newForm()
    api.passwords.add('hunter22')
    const badPort = await use(formId, {
      database_url: 'postgres://u:hunter22@h:port/db',
      region: 'eu-west-1',
    })
    expect(badPort.status).toBe(400)
    expect(badPort.body).toEqual({
      message: 'The port must be a number from 1 to 65535.',
    })
    const empty = await use(formId, { database_url: ' ', region: 'eu-west-1' })
    expect(empty.status).toBe(400)
    const noReplication = await api.role('')
    const db = await api.newDatabase()
    const notReady = await use(formId, {
      database_url: urlFor(noReplication, db),
      region: 'eu-west-1',
    })
    expect(notReady.status).toBe(400)
    expect(notReady.body.message).toMatch(/^The database is not ready: /)
    expect(await api.teamSources(teamId)).toBe(0)
    expect((await formRow(formId))?.used_at).toBeNull()
  })

  it('answers 409 when the team has that database already or is full, and the form stays usable', async () => {
    const { browser, teamId, formId } = await newForm()
    const database = await api.readyDatabase()
    const put = await api.put(browser, {
      region: 'eu-west-1',
      team_id: teamId,
      database_url: database.url,
    })
    expect(put.status).toBe(201)
    const twice = await use(formId, {
      database_url: database.url,
      region: 'eu-west-1',
    })
    expect(twice.status).toBe(409)
    expect(twice.body).toEqual({ message: ALREADY_REGISTERED_MESSAGE })
    expect((await formRow(formId))?.used_at).toBeNull()

    const small = api.buildApp({ MAX_SOURCES_PER_TEAM: '1' }, roomy)
    const full = await use(
      formId,
      { database_url: (await api.readyDatabase()).url, region: 'eu-west-1' },
      small,
    )
    expect(full.status).toBe(409)
    expect(full.body.message).toBe(
      'This team already has 1 sources, the most it can have. Delete a source to add another.',
    )
    expect((await formRow(formId))?.used_at).toBeNull()
    expect(await api.teamSources(teamId)).toBe(1)
    // Still usable: another database in the other region.
    const later = await use(formId, {
      database_url: database.url,
      region: 'us-east-1',
    })
    expect(later.status).toBe(201)
  })

  it('is limited per client IP like the public readiness check', async () => {
    const limited = api.buildApp(
      {},
      {
        databaseChecks: {
          limits: { perIp: 1, windowMs: 60_000, concurrent: 8 },
        },
      },
    )
    const { formId } = await newForm({}, limited)
    const body = {
      database_url: 'postgres://u:p@h:port/db',
      region: 'eu-west-1',
    }
    expect((await use(formId, body, limited)).status).toBe(400)
    const second = await use(formId, body, limited)
    expect(second.status).toBe(429)
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0)
  })

  it('refuses private addresses when the server does not allow them, connecting to nothing', async () => {
    const guarded = api.buildApp(
      { ALLOW_PRIVATE_DATABASE_TARGETS: 'false' },
      roomy,
    )
    const { teamId, formId } = await newForm({}, guarded)
    const database = await api.readyDatabase()
    for (const host of ['127.0.0.1', 'localhost', '10.1.2.3']) {
      const answer = await use(
        formId,
        {
          database_url: urlFor(database.user, database.db, host),
          region: 'eu-west-1',
        },
        guarded,
      )
      expect(answer.status, host).toBe(400)
      expect(answer.body).toEqual({
        message:
          'This host is not allowed: Sluice only checks databases on public internet addresses.',
      })
    }
    expect(await api.teamSources(teamId)).toBe(0)
    expect((await formRow(formId))?.used_at).toBeNull()
  })
})
