// Sources for the runtime's tests: a source database owned by its own (non-superuser) role
// with REPLICATION, a sources row as the create API will write it (password sealed, URL
// without it), and the server app with a real source runtime served on a local port.
import { serve, type ServerType } from '@hono/node-server'
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { expect, inject, vi } from 'vitest'
import { Engine } from '../../src/engine/engine.ts'
import type { Db } from '../../src/server/platform/db/database.ts'
import { sealPassword } from '../../src/server/platform/crypto/source-passwords.ts'
import { silentLogger } from '../../src/server/platform/log.ts'
import {
  EngineSourceRuntime,
  type EngineRuntimeOptions,
} from '../../src/server/sources/runtime/engine-runtime.ts'
import { sourceHostPinner } from '../../src/server/sources/runtime/pin-host.ts'
import { systemResolver } from '../../src/server/validation/guard.ts'
import { buildApp, keysWith, type App } from './app.ts'

export type SourceDatabase = {
  /** Full URL as the role (password included), as a user would paste it. */
  url: string
  role: string
  password: string
  /** The role's connection (owner of the database): make tables with it. */
  db: pg.Pool
  /** A superuser connection to the same database. */
  admin: pg.Pool
  drop(): Promise<void>
}

async function withClient<T>(
  url: string,
  fn: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

/**
 * A database owned by a fresh login role with REPLICATION, on the run's Postgres or on the
 * server `adminUrl` names. The password has characters a URL must encode, unless it is the
 * database's name (for messages that name the database).
 */
export async function createSourceDatabase(
  adminUrl: string = inject('pgAdminUrl'),
  options: { passwordIsDatabaseName?: boolean } = {},
): Promise<SourceDatabase> {
  const suffix = randomBytes(5).toString('hex')
  const role = `source_${suffix}`
  const name = `source_db_${suffix}`
  const password = options.passwordIsDatabaseName
    ? name
    : `p@ss:w/rd %${suffix}`
  await withClient(adminUrl, async (client) => {
    await client.query(
      `create role ${role} login replication password ${client.escapeLiteral(password)}`,
    )
    await client.query(`create database ${name} owner ${role}`)
  })
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const adminDbUrl = url.toString()
  url.username = role
  url.password = encodeURIComponent(password)
  const db = new pg.Pool({ connectionString: url.toString(), max: 2 })
  const admin = new pg.Pool({ connectionString: adminDbUrl, max: 2 })
  db.on('error', () => {})
  admin.on('error', () => {})
  return {
    url: url.toString(),
    role,
    password,
    db,
    admin,
    async drop() {
      await db.end()
      await admin.end()
      await withClient(adminUrl, async (client) => {
        // A database with logical slots cannot be dropped.
        await client.query(
          `select pg_terminate_backend(active_pid) from pg_replication_slots
            where database = $1 and active_pid is not null`,
          [name],
        )
        await client.query(
          `select pg_drop_replication_slot(slot_name) from pg_replication_slots
            where database = $1`,
          [name],
        )
        await client.query(`drop database if exists ${name} with (force)`)
        await client.query(`drop role if exists ${role}`)
      })
    },
  }
}

/** Inserts a sources row as PUT /api/v1/sources stores it; answers its id and secret. */
export async function insertSource(
  db: Db,
  key: Buffer,
  teamId: string,
  databaseUrl: string,
): Promise<{ id: string; secret: string }> {
  const id = randomUUID()
  const secret = randomBytes(24).toString('base64url')
  const url = new URL(databaseUrl)
  const password = decodeURIComponent(url.password)
  url.password = ''
  await db.query(
    `insert into sources (id, team_id, region, connection_url, encrypted_password,
                          source_secret, state)
     values ($1, $2, 'eu-west-1', $3, $4, $5, 'initializing')`,
    [id, teamId, url.toString(), sealPassword(key, id, password), secret],
  )
  return { id, secret }
}

export async function personalTeam(db: Db, userId: string): Promise<string> {
  const { rows } = await db.query<{ team_id: string }>(
    'select team_id from users where id = $1',
    [userId],
  )
  return rows[0]?.team_id ?? ''
}

export async function sourceRow(db: Db, id: string) {
  const { rows } = await db.query<{
    state: string
    state_reason: string | null
    deleted_at: Date | null
    wal_status: string | null
    wal_retained_bytes: string | null
    wal_lag_bytes: string | null
    health_checked_at: Date | null
  }>('select * from sources where id = $1', [id])
  return rows[0] ?? null
}

export async function eventNames(db: Db, id: string): Promise<string[]> {
  const { rows } = await db.query<{ event_name: string }>(
    `select event_name from source_event_logs where source_id = $1
      order by emitted_at, event_name`,
    [id],
  )
  return rows.map((row) => row.event_name)
}

/** The address guard as local mode sets it: the run's Postgres is on loopback. */
export const privateTargetsAllowed = sourceHostPinner({
  allowPrivate: true,
  resolve: systemResolver,
})

export type SourceServer = {
  app: App
  engine: Engine
  runtime: EngineSourceRuntime
  key: Buffer
  dataDir: string
  /** http://127.0.0.1:<port> */
  origin: string
  /** `keepDataDir`: to start the same server again (shape logs stay). */
  stop(options?: { keepDataDir?: boolean }): Promise<void>
}

/**
 * The server app with a real engine and source runtime (fast polls), on a local port.
 * `controlPlaneUrl` (the URL of `db`): the engine serves the dashboard's shapes too.
 * `dataDir` and `key`: an earlier server's, to start it again.
 */
export async function startSourceServer(
  db: Db,
  options: Partial<EngineRuntimeOptions> = {},
  again: {
    controlPlaneUrl?: string
    dataDir?: string
    key?: Buffer
    /** The app's environment variables (SECRET_ROTATION_GRACE…). */
    vars?: Record<string, string>
  } = {},
): Promise<SourceServer> {
  const { controlPlaneUrl } = again
  const dataDir =
    again.dataDir ?? (await mkdtemp(join(tmpdir(), 'sluice-sources-')))
  const engine = new Engine({ dataDir })
  // Slots are per cluster: the id keeps this control plane's apart from other files'.
  const shapes = controlPlaneUrl
    ? engine.attach(
        `control_${randomBytes(4).toString('hex')}`,
        controlPlaneUrl,
      )
    : undefined
  const key = again.key ?? randomBytes(32)
  const runtime = new EngineSourceRuntime({
    engine,
    db,
    key,
    log: silentLogger,
    pollIntervalMs: 250,
    healthIntervalMs: 250,
    dropRetryMs: 500,
    pinHost: privateTargetsAllowed,
    ...options,
  })
  runtime.start()
  const app = buildApp(db, again.vars ?? {}, {
    sources: runtime,
    keys: keysWith(key),
    ...(shapes && { shapes }),
  })
  if (shapes)
    await vi.waitFor(() => expect(shapes.status).toBe('active'), {
      timeout: 30_000,
    })
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
      resolve(s),
    )
  })
  const { port } = server.address() as AddressInfo
  return {
    app,
    engine,
    runtime,
    key,
    dataDir,
    origin: `http://127.0.0.1:${port}`,
    async stop({ keepDataDir = false } = {}) {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        // Long-polls would hold close() open for up to 20 s.
        ;(server as Server).closeAllConnections()
      })
      await runtime.stop()
      await shapes?.destroy()
      await engine.stop()
      if (!keepDataDir) await rm(dataDir, { recursive: true, force: true })
    },
  }
}
