// The migration runner against real Postgres: once per database, checksummed, transactional.
import { afterEach, describe, expect, it } from 'vitest'
import { createPool } from '../../src/server/platform/db/database.ts'
import {
  loadMigrations,
  migrateControlPlane,
} from '../../src/server/platform/db/migrations.ts'
import { migrate, MigrationError } from '../../src/shared/migrations.ts'
import {
  createTestDatabase,
  poolTarget,
  type TestDatabase,
} from '../support/database.ts'

// Each test gets an empty database: what is applied depends on nothing else.
const created: TestDatabase[] = []
async function freshDatabase() {
  const database = await createTestDatabase()
  created.push(database)
  return database
}
afterEach(async () => {
  await Promise.all(created.splice(0).map((d) => d.drop()))
})

// Columns as migrations/server/ define them (0001_init.sql and later additions).
const expectedColumns: Record<string, string[]> = {
  teams: ['id', 'name', 'created_at', 'updated_at'],
  users: ['id', 'name', 'email', 'team_id', 'created_at', 'updated_at'],
  identities: ['provider', 'subject', 'user_id', 'email', 'created_at'],
  memberships: ['team_id', 'user_id', 'role', 'created_at'],
  sessions: ['id', 'user_id', 'created_at', 'last_seen_at', 'expires_at'],
  oauth_states: [
    'id',
    'provider',
    'binding_hash',
    'code_verifier',
    'nonce',
    'created_at',
    'expires_at',
    'user_id',
    'return_to',
  ],
  provider_connections: [
    'user_id',
    'provider',
    'method',
    'access_token',
    'refresh_token',
    'expires_at',
    'created_at',
  ],
  sources: [
    'id',
    'team_id',
    'name',
    'state',
    'region',
    'connection_url',
    'encrypted_password',
    'source_secret',
    'deleted_at',
    'target_electric_url',
    'created_at',
    'updated_at',
    'database_key',
    'state_reason',
    'wal_retained_bytes',
    'wal_lag_bytes',
    'wal_status',
    'health_checked_at',
    'project',
    'environment',
    'previous_source_secret',
    'previous_secret_valid_until',
    'wal_forecast_seconds',
  ],
  source_event_logs: [
    'id',
    'source_id',
    'event_name',
    'event_details',
    'instance_id',
    'emitted_at',
  ],
}

describe('migrateControlPlane', () => {
  it('applies every file the first time and nothing the second', async () => {
    const { db } = await freshDatabase()
    const files = (await loadMigrations()).map((m) => m.name).sort()
    expect(files).toContain('0001_init.sql')

    expect(await migrateControlPlane(db)).toEqual(files)
    expect(await migrateControlPlane(db)).toEqual([])

    const { rows } = await db.query<{ name: string; checksum: string }>(
      'select name, checksum from schema_migrations order by name',
    )
    expect(rows.map((r) => r.name)).toEqual(files)
    for (const row of rows) expect(row.checksum).toMatch(/^[0-9a-f]{64}$/)
  })

  it('creates the control-plane tables with their columns', async () => {
    const { db } = await freshDatabase()
    await migrateControlPlane(db)
    const { rows } = await db.query<{
      table_name: string
      column_name: string
    }>(
      `select table_name, column_name from information_schema.columns
        where table_schema = 'public' and table_name = any($1)
        order by table_name, ordinal_position`,
      [Object.keys(expectedColumns)],
    )
    const actual: Record<string, string[]> = {}
    for (const row of rows)
      (actual[row.table_name] ??= []).push(row.column_name)
    expect(actual).toEqual(expectedColumns)
  })

  it('refuses to start on a database whose recorded checksum differs', async () => {
    const { db } = await freshDatabase()
    await migrateControlPlane(db)
    await db.query(
      `update schema_migrations set checksum = repeat('0', 64) where name = '0001_init.sql'`,
    )
    await expect(migrateControlPlane(db)).rejects.toThrow(
      /Migration "0001_init.sql" was changed after it was applied/,
    )
  })

  it('applies each file once when two servers migrate at the same time', async () => {
    const { db, url } = await freshDatabase()
    const other = createPool(url)
    try {
      const [a, b] = await Promise.all([
        migrateControlPlane(db),
        migrateControlPlane(other),
      ])
      const files = (await loadMigrations()).map((m) => m.name).sort()
      expect([...a, ...b].sort()).toEqual(files)
    } finally {
      await other.end()
    }
  })
})

describe('migrate', () => {
  const first = { name: '0001_things.sql', sql: 'create table things (id int)' }
  const second = {
    name: '0002_more.sql',
    sql: 'alter table things add column label text',
  }

  it('applies only the migrations not yet recorded, in order', async () => {
    const { db } = await freshDatabase()
    expect(await migrate(poolTarget(db), [first])).toEqual(['0001_things.sql'])
    expect(await migrate(poolTarget(db), [second, first])).toEqual([
      '0002_more.sql',
    ])
    await db.query(`insert into things (id, label) values (1, 'one')`)
  })

  it('refuses a migration changed after it was applied', async () => {
    const { db } = await freshDatabase()
    await migrate(poolTarget(db), [first])
    const changed = { ...first, sql: 'create table things (id bigint)' }
    const run = migrate(poolTarget(db), [changed, second])
    await expect(run).rejects.toThrow(MigrationError)
    await expect(run).rejects.toThrow(
      'Migration "0001_things.sql" was changed after it was applied; add a new migration instead',
    )
    // Nothing after the changed migration ran.
    const { rows } = await db.query<{ name: string }>(
      'select name from schema_migrations order by name',
    )
    expect(rows.map((r) => r.name)).toEqual(['0001_things.sql'])
  })

  it('rolls back a failing migration and does not record it', async () => {
    const { db } = await freshDatabase()
    const broken = {
      name: '0002_broken.sql',
      sql: 'create table half (id int); select no_such_function();',
    }
    await expect(migrate(poolTarget(db), [first, broken])).rejects.toThrow(
      /no_such_function/,
    )
    const { rows } = await db.query<{ name: string }>(
      'select name from schema_migrations order by name',
    )
    expect(rows.map((r) => r.name)).toEqual(['0001_things.sql'])
    const half = await db.query(`select to_regclass('half') as t`)
    expect(half.rows[0]).toEqual({ t: null })
  })
})
