// Real Postgres databases for e2e sources: a database of its own on the launcher's cluster
// (wal_level=logical) with a non-superuser role that has REPLICATION and owns it, and a
// password a URL must encode. Also the control-plane reads the specs check against.
import { randomUUID } from 'node:crypto'
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import {
  startEmbeddedPostgres,
  type RunningPostgres,
} from '../../src/server/platform/db/embedded-postgres.ts'
import { databaseUrlFile } from './paths.ts'

export type SourceDatabase = {
  name: string
  /** The connection string a user pastes (password included). */
  url: string
  password: string
  /** A superuser connection to that database. */
  admin: pg.Pool
  drop(): Promise<void>
}

export function controlPlaneUrl(): string {
  return readFileSync(databaseUrlFile, 'utf8')
}

/**
 * A Postgres of its own in a temporary directory, apart from the control plane's cluster;
 * stop() also removes the directory. `settings` are server settings (wal_level=logical
 * unless given).
 */
export async function startOwnPostgres(
  settings?: Record<string, string>,
): Promise<RunningPostgres> {
  const root = mkdtempSync(join(tmpdir(), 'sluice-e2e-pg-'))
  // Postgres runs as the postgres user when we are root; it must reach its directory.
  chmodSync(root, 0o755)
  const server = await startEmbeddedPostgres({
    dir: join(root, 'postgres'),
    database: 'postgres',
    settings,
  })
  return {
    ...server,
    async stop() {
      await server.stop()
      rmSync(root, { recursive: true, force: true })
    },
  }
}

/** `serverUrl`: a superuser URL of the cluster to hold it. */
export async function createSourceDatabase(
  serverUrl: string,
): Promise<SourceDatabase> {
  const name = `src_${randomUUID().slice(0, 8)}`
  const password = `pw/${randomUUID().slice(0, 8)}@#`
  const root = new pg.Client({ connectionString: serverUrl })
  await root.connect()
  try {
    await root.query(
      `create role ${name} login replication password '${password}'`,
    )
    await root.query(`create database ${name} owner ${name}`)
  } finally {
    await root.end()
  }
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  const admin = new pg.Pool({ connectionString: url.toString(), max: 2 })
  admin.on('error', () => {})
  url.username = name
  url.password = encodeURIComponent(password)
  return {
    name,
    url: url.toString(),
    password,
    admin,
    async drop() {
      await admin.end()
      const client = new pg.Client({ connectionString: serverUrl })
      client.on('error', () => {})
      if (
        await client.connect().then(
          () => true,
          () => false,
        )
      ) {
        await client.query(`drop database if exists ${name} with (force)`)
        await client.query(`drop role if exists ${name}`)
        await client.end()
      }
    },
  }
}

export async function slotCount(database: SourceDatabase): Promise<number> {
  const { rows } = await database.admin.query<{ n: string }>(
    `select count(*) as n from pg_replication_slots
      where database = current_database() and slot_name like 'sluice_%'`,
  )
  return Number(rows[0]?.n)
}

export type StoredSource = {
  state: string
  connection_url: string
  encrypted_password: Buffer | null
  deleted_at: Date | null
}

export async function storedSource(
  control: pg.Pool,
  id: string,
): Promise<StoredSource | null> {
  const { rows } = await control.query<StoredSource>(
    `select state, connection_url, encrypted_password, deleted_at from sources where id = $1`,
    [id],
  )
  return rows[0] ?? null
}
