// The admin tool's setup links: `npm run admin -- setup-forms ...` in process (text and
// --json, bad input exit 2 before any database, a missing team or form exit 1) and the same
// under /api/admin (off without SLUICE_ADMIN_TOKEN, 401 without the token).
import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { admin as runAdmin, adminJson } from '../support/admin-cli.ts'
import { buildApp, type App } from '../support/app.ts'
import { useControlPlaneDatabase } from '../support/database.ts'

const database = useControlPlaneDatabase()
const TOKEN = 'admin-token-for-tests-0123456789'
let app: App
let off: App
beforeAll(() => {
  app = buildApp(database.db, { SLUICE_ADMIN_TOKEN: TOKEN })
  off = buildApp(database.db)
})

const admin = (
  args: string[],
  env: Record<string, string> = { DATABASE_URL: database.url },
) => runAdmin(args, env)

type Form = {
  id: string
  team_id: string
  region: string | null
  expires_at: string
  deleted_at: string | null
  url: string
}

const json = adminJson

async function newTeam(): Promise<string> {
  const { rows } = await database.db.query<{ id: string }>(
    `insert into teams (name) values ('Setup team') returning id`,
  )
  return rows[0]?.id ?? ''
}

const daysFromNow = (iso: string) =>
  Math.round((Date.parse(iso) - Date.now()) / (24 * 3600 * 1000))

// A test runs several commands, each opening and closing its own pool.
const SLOW = 60_000

describe('npm run admin -- setup-forms', () => {
  it(
    'creates, lists and deletes a team’s links, in text and in JSON',
    async () => {
      const team = await newTeam()
      const created = await admin([
        'setup-forms',
        'create',
        '--team',
        team,
        '--region',
        'us-east-1',
        '--expires-in',
        '3d',
      ])
      expect(created.code).toBe(0)
      const id = /setup form ([0-9a-f-]{36})/.exec(created.stdout)?.[1] ?? ''
      expect(created.stdout).toMatch(
        new RegExp(
          `^Created setup form ${id} for team ${team} in us-east-1, expires \\S+\\nhttp://localhost:5133/setup/${id}\\n$`,
        ),
      )
      // PUBLIC_URL, when set, is where the link points.
      const other = json<Form>(
        await admin(['setup-forms', 'create', '--team', team, '--json'], {
          DATABASE_URL: database.url,
          PUBLIC_URL: 'https://sluice.example.com',
        }),
      )
      expect(other).toMatchObject({ team_id: team, region: null })
      expect(other.url).toBe(`https://sluice.example.com/setup/${other.id}`)
      expect(daysFromNow(other.expires_at)).toBe(7)

      const listed = json<Form[]>(
        await admin(['setup-forms', 'list', '--team', team, '--json']),
      )
      expect(listed.map((f) => f.id)).toEqual([other.id, id])
      expect(daysFromNow(listed[1]?.expires_at ?? '')).toBe(3)
      const text = await admin(['setup-forms', 'list', '--team', team])
      expect(text.stdout).toContain(`${id}  usable  region: us-east-1`)

      const deleted = await admin(['setup-forms', 'delete', id])
      expect(deleted).toMatchObject({
        code: 0,
        stdout: `Deleted setup form ${id}\n`,
      })
      const after = await admin(['setup-forms', 'list', '--team', team])
      expect(after.stdout).toContain(`${id}  deleted`)
    },
    SLOW,
  )

  it(
    'refuses bad input with exit 2 before any database, and a missing team or form with 1',
    async () => {
      const none = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }
      const team = randomUUID()
      const cases: [string[], string][] = [
        [['setup-forms', 'create'], 'team is required'],
        [['setup-forms', 'create', '--team', 'x'], 'team must be a UUID'],
        [
          ['setup-forms', 'create', '--team', team, '--expires-in', '31d'],
          'expires-in must be at most 30d',
        ],
        [
          ['setup-forms', 'create', '--team', team, '--expires-in', '0d'],
          'at least 1d',
        ],
        [
          ['setup-forms', 'create', '--team', team, '--expires-in', '1w'],
          'like 7d',
        ],
        [
          ['setup-forms', 'create', '--team', team, '--region', 'ca-west-1'],
          'region must be one of us-east-1, eu-west-1',
        ],
        [['setup-forms', 'list'], 'team is required'],
        [['setup-forms', 'delete'], "needs the setup form's id"],
        [['setup-forms', 'delete', 'nope'], 'setup form must be a UUID'],
        [['setup-forms', 'renew'], 'unknown command: setup-forms renew'],
      ]
      const runs = await Promise.all(cases.map(([args]) => admin(args, none)))
      runs.forEach((run, i) => {
        const [args, message] = cases[i]!
        expect({ args, code: run.code }).toEqual({ args, code: 2 })
        expect(run.stderr).toContain(message)
        expect(run.stdout).toBe('')
      })

      const noTeam = await admin([
        'setup-forms',
        'create',
        '--team',
        team,
        '--json',
      ])
      expect(noTeam.code).toBe(1)
      expect(JSON.parse(noTeam.stderr)).toEqual({
        error: { kind: 'not_found', message: `no team with id ${team}` },
      })
      const form = randomUUID()
      const noForm = await admin(['setup-forms', 'delete', form])
      expect(noForm.code).toBe(1)
      expect(noForm.stderr).toContain(`no setup form with id ${form}`)
    },
    SLOW,
  )
})

// A script's request: a bearer token, JSON, and no Origin or cookie.
const call = (
  method: string,
  path: string,
  body?: unknown,
  token: string | null = TOKEN,
  target = app,
) =>
  target.request(`http://localhost/api/admin${path}`, {
    method,
    headers: {
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })

describe('the admin API for setup links', () => {
  it('is off without SLUICE_ADMIN_TOKEN and needs the token', async () => {
    const team = await newTeam()
    const path = `/teams/${team}/setup-forms`
    expect((await call('POST', path, {}, TOKEN, off)).status).toBe(404)
    expect((await call('GET', path, undefined, TOKEN, off)).status).toBe(404)
    expect((await call('POST', path, {}, null)).status).toBe(401)
    expect((await call('GET', path, undefined, 'wrong')).status).toBe(401)
    const form = randomUUID()
    expect(
      (await call('DELETE', `/setup-forms/${form}`, undefined, null)).status,
    ).toBe(401)
    const { rows } = await database.db.query(
      'select 1 from source_setup_forms where team_id = $1',
      [team],
    )
    expect(rows).toEqual([])
  })

  it('creates, lists and deletes, answering 400 and 404 with a message', async () => {
    const team = await newTeam()
    const path = `/teams/${team}/setup-forms`
    const created = await call('POST', path, {
      region: 'eu-west-1',
      expires_in_days: 30,
    })
    expect(created.status).toBe(201)
    const form = (await created.json()) as Form
    expect(form).toMatchObject({ team_id: team, region: 'eu-west-1' })
    expect(form.url).toBe(`http://localhost/setup/${form.id}`)
    expect(daysFromNow(form.expires_at)).toBe(30)

    const listed = (await (await call('GET', path)).json()) as Form[]
    expect(listed.map((f) => f.id)).toEqual([form.id])
    const deleted = await call('DELETE', `/setup-forms/${form.id}`)
    expect(deleted.status).toBe(200)
    expect(((await deleted.json()) as Form).deleted_at).toEqual(
      expect.any(String),
    )

    const tooLong = await call('POST', path, { expires_in_days: 31 })
    expect(tooLong.status).toBe(400)
    expect(await tooLong.json()).toEqual({
      message: 'expires-in must be at most 30d',
    })
    const unknown = await call('POST', `/teams/${randomUUID()}/setup-forms`, {})
    expect(unknown.status).toBe(404)
    expect((await call('DELETE', `/setup-forms/${randomUUID()}`)).status).toBe(
      404,
    )
    expect((await call('DELETE', '/setup-forms/nope')).status).toBe(400)
  })
})
