// Neon's validate route on real Postgres behind the fake (a ready database, and a server with
// wal_level=replica), enabling logical replication through the API, and the Supabase host
// findings of the shared check (IPv6-only direct host, pooler refused).
import { randomBytes } from 'node:crypto'
import { chmod, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import {
  startEmbeddedPostgres,
  type RunningPostgres,
} from '../../src/server/platform/db/embedded-postgres.ts'
import { VALIDATE_DATABASE_URL_PATH } from '../../src/shared/validation.ts'
import { buildApp, signInLocally, type App } from '../support/app.ts'
import {
  adminQuery,
  uniqueName,
  useControlPlaneDatabase,
} from '../support/database.ts'
import { startFakeNeon, type FakeNeon } from '../support/fake-neon.ts'
import { putToken } from '../support/providers.ts'

const database = useControlPlaneDatabase()
const KEY = 'napi_validate_0123456789abcdef'
let neon: FakeNeon
let app: App
let replica: RunningPostgres | undefined
let root = ''
const role = uniqueName('neon_role')
const dbName = uniqueName('neon_db')
const password = randomBytes(12).toString('hex')

beforeAll(async () => {
  neon = await startFakeNeon()
  neon.addPersonalToken(KEY)
  app = buildApp(
    database.db,
    { NEON_API_URL: neon.env.NEON_API_URL },
    {
      providerOperations: { pollMs: 5, timeoutMs: 200 },
    },
  )
  await adminQuery(
    `create role ${role} login replication password '${password}'`,
  )
  await adminQuery(`create database ${dbName} owner ${role}`)
  root = await mkdtemp(join(tmpdir(), 'sluice-neon-replica-'))
  // Postgres runs as the `postgres` user when we are root; it must reach its directory.
  await chmod(root, 0o755)
  replica = await startEmbeddedPostgres({
    dir: join(root, 'pg'),
    settings: { wal_level: 'replica', fsync: 'off' },
  })
  const ready = new URL(inject('pgAdminUrl'))
  const low = new URL(replica.url)
  neon.seed({
    projects: [
      {
        id: 'p-ready',
        name: 'Ready',
        created_at: '2026-01-01T00:00:00Z',
        branches: [
          {
            id: 'br-main',
            name: 'main',
            default: true,
            databases: [{ id: 1, name: dbName, owner_name: role }],
            roles: [{ name: role, password }],
            endpoint: { host: ready.hostname, port: Number(ready.port) },
          },
        ],
      },
      {
        id: 'p-replica',
        name: 'Replica WAL',
        created_at: '2026-01-02T00:00:00Z',
        branches: [
          {
            id: 'br-main',
            name: 'main',
            default: true,
            databases: [{ id: 1, name: 'postgres', owner_name: low.username }],
            roles: [
              {
                name: low.username,
                password: decodeURIComponent(low.password),
              },
            ],
            endpoint: { host: low.hostname, port: Number(low.port) },
          },
        ],
      },
    ],
  })
}, 120_000)
afterAll(async () => {
  await neon.close()
  await replica?.stop()
  if (root) await rm(root, { recursive: true, force: true, maxRetries: 5 })
  await adminQuery(`drop database if exists ${dbName} with (force)`)
  await adminQuery(`drop role if exists ${role}`)
}, 60_000)

async function connectedBrowser() {
  const { browser } = await signInLocally(app)
  expect((await putToken(browser, 'neon', KEY)).status).toBe(200)
  return browser
}

const validate = (projectId: string, db: string, roleName: string) =>
  `/api/public/neon/projects/${projectId}/branches/br-main/databases/${encodeURIComponent(db)}/validate?role=${encodeURIComponent(roleName)}`

describe('Neon validate', () => {
  it('validates a ready database through its direct connection URI', async () => {
    const browser = await connectedBrowser()
    const response = await browser.postJson(validate('p-ready', dbName, role))
    expect(response.status).toBe(200)
    const body = (await response.json()) as {
      validation: Record<string, unknown>
      neon: { connection_uri: string }
    }
    expect(body.validation).toMatchObject({
      can_connect: true,
      can_connect_without_replication: true,
      has_replication_permissions: true,
      has_logical_wal: true,
      has_create_privilege: true,
    })
    expect(body.neon.connection_uri).toContain(`/${dbName}?`)
    expect(neon.calls().find((c) => c.includes('/connection_uri'))).toMatch(
      /pooled=false/,
    )
  })

  it('reports WAL that is not logical', async () => {
    const browser = await connectedBrowser()
    const response = await browser.postJson(
      validate('p-replica', 'postgres', 'postgres'),
    )
    const body = (await response.json()) as {
      validation: Record<string, unknown>
    }
    expect(body.validation).toMatchObject({
      can_connect: true,
      has_logical_wal: false,
    })
  })

  it('answers 401 when not connected, and 400 without a role', async () => {
    const { browser } = await signInLocally(app)
    expect(
      (await browser.postJson(validate('p-ready', dbName, role))).status,
    ).toBe(401)
    const connected = await connectedBrowser()
    const noRole = await connected.postJson(
      `/api/public/neon/projects/p-ready/branches/br-main/databases/${dbName}/validate`,
    )
    expect(noRole.status).toBe(400)
  })
})

describe('enable logical replication', () => {
  const path = '/api/public/neon/projects/p-replica/logical-replication'

  it("sets the project's setting and waits for its operations to finish", async () => {
    const browser = await connectedBrowser()
    neon.setOperationPolls(2)
    const response = await browser.postJson(path)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ enabled: true })
    expect(
      neon.project('p-replica')?.settings?.enable_logical_replication,
    ).toBe(true)
    expect(neon.calls().filter((c) => c.includes('/operations/'))).toHaveLength(
      3,
    )
  })

  it('answers 504 when the operation does not end in time', async () => {
    const browser = await connectedBrowser()
    neon.setOperationPolls(null)
    try {
      const response = await browser.postJson(path)
      expect(response.status).toBe(504)
      expect(await response.json()).toEqual({
        message: expect.stringMatching(/did not finish/),
      })
    } finally {
      neon.finishOperations()
      neon.setOperationPolls(1)
    }
  })
})

describe('Supabase hosts in the shared check', () => {
  const url = (host: string, user = 'postgres') =>
    `postgresql://${user}:secret@${host}:5432/postgres?sslmode=require`

  it('explains an IPv6-only direct host this server cannot resolve', async () => {
    const failing = buildApp(
      database.db,
      {},
      {
        databaseChecks: {
          resolve: () => Promise.reject(new Error('ENOTFOUND')),
        },
      },
    )
    const { browser } = await signInLocally(failing)
    const response = await browser.postJson(VALIDATE_DATABASE_URL_PATH, {
      database_url: url('db.abcdefghijklmnop.supabase.co'),
    })
    const body = (await response.json()) as { connection_error: string }
    expect(body.connection_error).toMatch(
      /IPv6-only.*IPv4 add-on.*run Sluice where IPv6 works/,
    )
  })

  it('refuses a pooler host, naming the direct host', async () => {
    const { browser } = await signInLocally(app)
    const response = await browser.postJson(VALIDATE_DATABASE_URL_PATH, {
      database_url: url(
        'aws-0-eu-west-1.pooler.supabase.com',
        'postgres.abcdefghijklmnop',
      ),
    })
    const body = (await response.json()) as {
      connection_error: string
      can_connect: boolean
    }
    expect(body.can_connect).toBe(false)
    expect(body.connection_error).toMatch(
      /db\.abcdefghijklmnop\.supabase\.co on port 5432/,
    )
  })
})
