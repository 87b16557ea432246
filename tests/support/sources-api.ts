// Helpers for the PUT /api/v1/sources tests: real roles and databases on the run's Postgres
// (dropped afterwards), a capturing logger, and a `put` that fails the test if an answer
// carries any password a test used.
import { randomBytes } from 'node:crypto'
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest'
import type { Db } from '../../src/server/platform/db/database.ts'
import type { Logger } from '../../src/server/platform/log.ts'
import {
  buildApp,
  signInLocally,
  type App,
  type AppOverrides,
  type Browser,
} from './app.ts'
import { adminQuery, uniqueName, useControlPlaneDatabase } from './database.ts'

export type Answer = {
  status: number
  headers: Headers
  body: Record<string, unknown>
}

export type SourceRow = {
  id: string
  team_id: string
  name: string | null
  region: string
  state: string
  connection_url: string
  encrypted_password: Buffer | null
  source_secret: string
  database_key: string
  xmin: string
}

export const skip = '?skip_validation=true'

/** The port of the run's Postgres, where every test database lives. */
export const port = () => Number(new URL(inject('pgAdminUrl')).port)

export function urlFor(
  user: { name: string; password: string },
  db: string,
  host = '127.0.0.1',
): string {
  const url = new URL(`postgres://${host}:${port()}/${db}`)
  url.username = user.name
  url.password = user.password
  return url.toString()
}

/**
 * Registers this file's hooks: a control-plane database, an app logging into `logged`, and
 * after each test a check that nothing logged holds a password. Read fields inside tests.
 */
export function useSourcesApi() {
  const database = useControlPlaneDatabase()
  const logged: string[] = []
  const capture: Logger = {
    debug: (line) => logged.push(line),
    info: (line) => logged.push(line),
    warn: (line) => logged.push(line),
    error: (line) => logged.push(line),
  }
  // Every password a test used, raw and as the URL carried it.
  const passwords = new Set<string>()
  const created = { roles: [] as string[], databases: [] as string[] }
  let app: App | undefined

  beforeAll(() => {
    app = buildApp(database.db, {}, { log: capture })
  })
  afterEach(() => {
    expect(logged.length).toBeGreaterThan(0)
    for (const line of logged)
      for (const password of passwords) expect(line).not.toContain(password)
    logged.length = 0
  })
  // Each drop waits for a checkpoint: on a loaded machine a few take longer than a hook's 10 s.
  afterAll(async () => {
    for (const name of created.databases)
      await adminQuery(`drop database if exists ${name} with (force)`)
    for (const role of created.roles)
      await adminQuery(`drop role if exists ${role}`)
  }, 60_000)

  const helpers = {
    capture,
    passwords,
    admin: adminQuery,
    get db(): Db {
      return database.db
    },
    get app(): App {
      if (!app) throw new Error('the app is built in beforeAll')
      return app
    },
    /** An app on this file's database; its log is captured like the main one. */
    buildApp(vars: Record<string, string>, deps: AppOverrides = {}) {
      return buildApp(database.db, vars, { log: capture, ...deps })
    },

    /** A login role; its password has characters a URL must encode. */
    async role(attributes: string) {
      const name = uniqueName('src_role')
      const password = `p@ss:${randomBytes(8).toString('hex')}/x`
      await adminQuery(
        `create role ${name} login ${attributes} password '${password}'`,
      )
      created.roles.push(name)
      passwords.add(password).add(encodeURIComponent(password))
      return { name, password }
    },

    async newDatabase(): Promise<string> {
      const name = uniqueName('src_db')
      await adminQuery(`create database ${name}`)
      created.databases.push(name)
      return name
    },

    /** A role with REPLICATION and CREATE on a new database: ready for the sync engine. */
    async readyDatabase() {
      const user = await helpers.role('replication')
      const db = await helpers.newDatabase()
      await adminQuery(`grant create on database ${db} to ${user.name}`)
      return { user, db, url: urlFor(user, db) }
    },

    /** Signs a new user in; answers their browser and personal team. */
    async signIn(on?: App) {
      const { browser } = await signInLocally(on ?? helpers.app)
      const me = (await (await browser.get('/api/v1/users/me')).json()) as {
        team_id: string
      }
      return { browser, teamId: me.team_id }
    },

    async put(browser: Browser, body: unknown, query = ''): Promise<Answer> {
      return helpers.send(browser, 'PUT', `/api/v1/sources${query}`, body)
    },

    /** PATCH /api/v1/sources/{id}: a rename. */
    async patch(browser: Browser, id: string, body: unknown): Promise<Answer> {
      return helpers.send(browser, 'PATCH', `/api/v1/sources/${id}`, body)
    },

    async send(
      browser: Browser,
      method: string,
      path: string,
      body: unknown,
    ): Promise<Answer> {
      const response = await browser.request(path, {
        method,
        headers: { origin: browser.origin, 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      })
      const text = await response.text()
      for (const password of passwords) expect(text).not.toContain(password)
      return {
        status: response.status,
        headers: response.headers,
        body: JSON.parse(text) as Record<string, unknown>,
      }
    },

    async sourceRow(id: unknown): Promise<SourceRow> {
      const { rows } = await database.db.query<SourceRow>(
        'select *, xmin::text as xmin from sources where id = $1',
        [id],
      )
      if (!rows[0]) throw new Error(`no source ${String(id)}`)
      return rows[0]
    },

    async events(id: unknown) {
      const { rows } = await database.db.query<{
        event_name: string
        event_details: Record<string, unknown>
        instance_id: string
      }>(
        `select event_name, event_details, instance_id from source_event_logs
          where source_id = $1`,
        [id],
      )
      return rows
    },

    async teamSources(teamId: string): Promise<number> {
      const { rows } = await database.db.query<{ n: number }>(
        'select count(*)::int as n from sources where team_id = $1',
        [teamId],
      )
      return rows[0]?.n ?? 0
    },
  }
  return helpers
}
