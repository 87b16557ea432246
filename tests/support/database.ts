// A fresh database per test file on the run's embedded Postgres, migrated like the real server.
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, inject } from 'vitest'
import { createPool, type Db } from '../../src/server/platform/db/database.ts'

export type TestDatabase = {
  name: string
  url: string
  db: Db
  /** Closes the pool and drops the database. */
  drop(): Promise<void>
}

async function asAdmin<T>(
  fn: (client: pg.Client) => Promise<T>,
  adminUrl = inject('pgAdminUrl'),
): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

/** One statement as the run's superuser (roles, databases, grants). */
export async function adminQuery(sql: string): Promise<void> {
  await asAdmin((client) => client.query(sql))
}

/** A name no other test uses: `prefix_` and ten hex digits. */
export const uniqueName = (prefix: string) =>
  `${prefix}_${randomBytes(5).toString('hex')}`

/**
 * Creates an empty database (no migrations), or a copy of `template`; the caller drops it.
 * `adminUrl`: a superuser URL of another server than the run's (the fault scenarios run
 * outside vitest too).
 */
export async function createTestDatabase(
  adminUrl = inject('pgAdminUrl'),
  template?: string,
): Promise<TestDatabase> {
  const name = `test_${randomBytes(6).toString('hex')}`
  await asAdmin(
    (client) =>
      client.query(
        `create database ${name}${template ? ` template ${template}` : ''}`,
      ),
    adminUrl,
  )
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const db = createPool(url.toString())
  return {
    name,
    url: url.toString(),
    db,
    async drop() {
      await db.end()
      await asAdmin(
        (client) =>
          client.query(`drop database if exists ${name} with (force)`),
        adminUrl,
      )
    },
  }
}

/**
 * Registers hooks giving this test file its own migrated control-plane database: a copy of the
 * run's migrated template (tests/support/global-setup.ts); migrations.test.ts runs them itself.
 * Read `.db` inside tests or hooks, not at module load.
 */
export function useControlPlaneDatabase(): {
  readonly db: Db
  readonly url: string
} {
  let current: TestDatabase | undefined
  beforeAll(async () => {
    current = await createTestDatabase(
      inject('pgAdminUrl'),
      inject('controlPlaneTemplate'),
    )
  })
  afterAll(async () => {
    await current?.drop()
  })
  return {
    get db() {
      if (!current) throw new Error('the test database is created in beforeAll')
      return current.db
    },
    get url() {
      if (!current) throw new Error('the test database is created in beforeAll')
      return current.url
    },
  }
}

export { poolTarget } from '../../src/server/platform/db/migrations.ts'

export async function countRows(db: Db, table: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from ${table}`,
  )
  return rows[0]?.n ?? 0
}

/**
 * Forgets every rate-limit count. Apps on one database share their limiters' counts, as
 * servers sharing a control plane do, and every in-process request comes from one address: a
 * file whose tests each meet a per-IP limit starts each test with nothing counted.
 */
export async function clearRateLimits(db: Db): Promise<void> {
  await db.query('delete from rate_limits')
}
