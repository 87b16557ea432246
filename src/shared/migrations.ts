// Forward-only SQL migrations, each applied once in its own transaction and recorded with a
// checksum. Shared by the server (node-postgres) and the browser store (PGlite).

export type Migration = { name: string; sql: string }

interface MigrationTx {
  exec(sql: string): Promise<void>
  query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>
}

export interface MigrationTarget {
  transaction<T>(fn: (tx: MigrationTx) => Promise<T>): Promise<T>
}

const NAME = /^(\d{4})_[a-z0-9_]+\.sql$/
// Any constant works; it only keeps two processes from migrating the same database at once.
const LOCK_KEY = 7_451_020

export class MigrationError extends Error {}

/** Checks names and order; returns migrations sorted by their number. */
export function sortMigrations(migrations: Migration[]): Migration[] {
  const seen = new Map<string, string>()
  for (const m of migrations) {
    const number = NAME.exec(m.name)?.[1]
    if (!number)
      throw new MigrationError(
        `Bad migration file name "${m.name}": expected NNNN_name.sql`,
      )
    const other = seen.get(number)
    if (other)
      throw new MigrationError(
        `Migrations "${other}" and "${m.name}" share the number ${number}`,
      )
    seen.set(number, m.name)
  }
  return [...migrations].sort((a, b) => a.name.localeCompare(b.name))
}

async function checksum(sql: string): Promise<string> {
  const bytes = new TextEncoder().encode(sql)
  const digest = await crypto.subtle.digest('SHA-256', bytes)
  return [...new Uint8Array(digest)]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('')
}

/** Applies pending migrations; returns the names applied by this call. */
export async function migrate(
  target: MigrationTarget,
  migrations: Migration[],
): Promise<string[]> {
  const ordered = sortMigrations(migrations)
  const sums = await Promise.all(ordered.map((m) => checksum(m.sql)))
  // The usual case, every start of an up-to-date database: one read, no lock. Migrations are
  // only ever added, so "all recorded" cannot be made false by a concurrent run.
  if (await allRecorded(target, ordered, sums)) return []
  await target.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [LOCK_KEY])
    await tx.exec(`create table if not exists schema_migrations (
      name text primary key,
      checksum text not null,
      applied_at timestamptz not null default now()
    )`)
  })

  const applied: string[] = []
  for (const [i, migration] of ordered.entries()) {
    const sum = sums[i]
    const ran = await target.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [LOCK_KEY])
      const { rows } = await tx.query<{ checksum: string }>(
        'select checksum from schema_migrations where name = $1',
        [migration.name],
      )
      const recorded = rows[0]
      if (recorded) {
        if (recorded.checksum !== sum)
          throw new MigrationError(
            `Migration "${migration.name}" was changed after it was applied; add a new migration instead`,
          )
        return false
      }
      await tx.exec(migration.sql)
      await tx.query(
        'insert into schema_migrations (name, checksum) values ($1, $2)',
        [migration.name, sum],
      )
      return true
    })
    if (ran) applied.push(migration.name)
  }
  return applied
}

async function allRecorded(
  target: MigrationTarget,
  ordered: Migration[],
  sums: string[],
): Promise<boolean> {
  return target.transaction(async (tx) => {
    const { rows: found } = await tx.query<{ name: string | null }>(
      `select to_regclass('schema_migrations')::text as name`,
    )
    if (!found[0]?.name) return false
    const { rows } = await tx.query<{ name: string; checksum: string }>(
      'select name, checksum from schema_migrations',
    )
    const recorded = new Map(rows.map((row) => [row.name, row.checksum]))
    // A changed checksum is not "recorded": the full run reports it.
    return ordered.every((m, i) => recorded.get(m.name) === sums[i])
  })
}
