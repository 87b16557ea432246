// The readiness checks against real Postgres: the run's server (wal_level=logical) with a role
// and database per case, a second server with wal_level=replica, and a port nobody listens on.
import { randomBytes } from 'node:crypto'
import { chmod, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import {
  freePort,
  startEmbeddedPostgres,
  type RunningPostgres,
} from '../../src/server/platform/db/embedded-postgres.ts'
import { checkDatabase } from '../../src/server/validation/check.ts'
import { adminQuery, uniqueName } from '../support/database.ts'

const local = { allowPrivate: true }
const created: { roles: string[]; databases: string[] } = {
  roles: [],
  databases: [],
}

/** A login role (attributes as given) and a database it may connect to; returns its URL. */
async function roleAndDatabase(
  attributes: string,
  grantCreate: boolean,
  options: { passwordIsRoleName?: boolean } = {},
) {
  const role = uniqueName('check_role')
  const database = uniqueName('check_db')
  const password = options.passwordIsRoleName
    ? role
    : randomBytes(12).toString('hex')
  await adminQuery(
    `create role ${role} login ${attributes} password '${password}'`,
  )
  created.roles.push(role)
  await adminQuery(`create database ${database}`)
  created.databases.push(database)
  if (grantCreate)
    await adminQuery(`grant create on database ${database} to ${role}`)
  const url = new URL(inject('pgAdminUrl'))
  url.username = role
  url.password = password
  url.pathname = `/${database}`
  return { url: url.toString(), role, database, password }
}

afterAll(async () => {
  for (const database of created.databases)
    await adminQuery(`drop database if exists ${database} with (force)`)
  for (const role of created.roles)
    await adminQuery(`drop role if exists ${role}`)
})

const connected = {
  can_connect: true,
  can_connect_without_replication: true,
}

describe('readiness checks against real Postgres', () => {
  it('reports a database ready for the sync engine', async () => {
    const { url, role, database } = await roleAndDatabase('replication', true)
    const result = await checkDatabase(url, local)
    expect(result).toMatchObject({
      ...connected,
      has_replication_permissions: true,
      has_logical_wal: true,
      has_create_privilege: true,
    })
    expect(result.connection_error).toBeUndefined()
    expect(result.diagnostics).toMatchObject({
      user: role,
      database,
      is_read_replica: false,
      pooler_host: false,
    })
    expect(result.diagnostics?.free_replication_slots).toBeGreaterThan(0)
    expect(result.diagnostics?.max_wal_senders).toBeGreaterThan(0)
  })

  it('reports a role without REPLICATION', async () => {
    const { url, role } = await roleAndDatabase('', true)
    const result = await checkDatabase(url, local)
    expect(result).toMatchObject({
      can_connect: false,
      can_connect_without_replication: true,
      has_replication_permissions: false,
      has_logical_wal: true,
      has_create_privilege: true,
    })
    expect(result.connection_error).toBe(
      `User "${role}" may not open a replication connection: it needs the REPLICATION attribute.`,
    )
  })

  it('reports a role without CREATE on the database', async () => {
    const { url } = await roleAndDatabase('replication', false)
    const result = await checkDatabase(url, local)
    expect(result).toMatchObject({
      ...connected,
      has_replication_permissions: true,
      has_logical_wal: true,
      has_create_privilege: false,
    })
    expect(result.connection_error).toBeUndefined()
  })

  it('reports a wrong password without repeating it', async () => {
    const { url, role } = await roleAndDatabase('replication', true)
    const wrong = new URL(url)
    wrong.password = 'not-the-password-4711'
    const result = await checkDatabase(wrong.toString(), local)
    expect(result).toMatchObject({
      can_connect: false,
      can_connect_without_replication: false,
      has_replication_permissions: false,
      has_logical_wal: false,
      has_create_privilege: false,
    })
    expect(result.connection_error).toBe(
      `Password authentication failed for user "${role}".`,
    )
    expect(JSON.stringify(result)).not.toContain('not-the-password-4711')
  })

  it('reports a database that does not exist', async () => {
    const { url } = await roleAndDatabase('replication', true)
    const missing = new URL(url)
    missing.pathname = '/no_such_database'
    const result = await checkDatabase(missing.toString(), local)
    expect(result).toMatchObject({
      can_connect: false,
      can_connect_without_replication: false,
      has_replication_permissions: false,
      has_logical_wal: false,
      has_create_privilege: false,
      connection_error: 'Database "no_such_database" does not exist.',
    })
  })

  it('reports nothing listening on the port', async () => {
    const port = await freePort()
    const url = `postgres://someone:secret-pw@127.0.0.1:${port}/db`
    const result = await checkDatabase(url, local)
    expect(result).toMatchObject({
      can_connect: false,
      can_connect_without_replication: false,
      has_replication_permissions: false,
      has_logical_wal: false,
      has_create_privilege: false,
      connection_error: `Could not reach a Postgres server at 127.0.0.1:${port}.`,
    })
  })
})

// Messages are ours, filled in with the URL's parts: a password that is also one of those
// parts, or a piece of one, leaves them whole (masking it used to read 'db.exam***le.invalid').
describe('a password that is also part of the message', () => {
  it('leaves the host whole when it does not resolve', async () => {
    const result = await checkDatabase(
      'postgres://someone:p@db.example.invalid/db',
      {
        ...local,
        resolve: () => Promise.reject(new Error('ENOTFOUND')),
      },
    )
    expect(result.connection_error).toBe(
      'Could not resolve the host "db.example.invalid".',
    )
  })

  it('leaves the address whole when nothing listens', async () => {
    const port = await freePort()
    const result = await checkDatabase(
      `postgres://someone:127@127.0.0.1:${port}/db`,
      local,
    )
    expect(result.connection_error).toBe(
      `Could not reach a Postgres server at 127.0.0.1:${port}.`,
    )
  })

  it('leaves the user name readable when the password equals it', async () => {
    const { url, role } = await roleAndDatabase('', true, {
      passwordIsRoleName: true,
    })
    const result = await checkDatabase(url, local)
    expect(result.can_connect_without_replication).toBe(true)
    expect(result.connection_error).toBe(
      `User "${role}" may not open a replication connection: it needs the REPLICATION attribute.`,
    )
    const other = await roleAndDatabase('replication', true)
    const wrong = new URL(other.url)
    wrong.password = other.role
    expect(
      (await checkDatabase(wrong.toString(), local)).connection_error,
    ).toBe(`Password authentication failed for user "${other.role}".`)
  })
})

describe('a server with wal_level=replica', () => {
  let root: string
  let server: RunningPostgres | undefined

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'sluice-check-replica-'))
    // Postgres runs as the `postgres` user when we are root; it must reach its directory.
    await chmod(root, 0o755)
    server = await startEmbeddedPostgres({
      dir: join(root, 'pg'),
      settings: { wal_level: 'replica', fsync: 'off' },
    })
  }, 120_000)

  afterAll(async () => {
    await server?.stop()
    await rm(root, { recursive: true, force: true, maxRetries: 5 })
  }, 60_000)

  it('reports that WAL is not logical, and nothing else', async () => {
    if (!server) throw new Error('the server starts in beforeAll')
    const result = await checkDatabase(server.url, local)
    expect(result).toMatchObject({
      ...connected,
      has_replication_permissions: true,
      has_logical_wal: false,
      has_create_privilege: true,
    })
    expect(result.connection_error).toBeUndefined()
  })
})
