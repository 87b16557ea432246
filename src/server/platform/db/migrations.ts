// Applies migrations/server/*.sql to the control-plane database at start-up.
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import {
  migrate,
  type Migration,
  type MigrationTarget,
} from '../../../shared/migrations.ts'
import { PROJECT_ROOT } from '../../project-root.ts'
import { transaction, type Db } from './database.ts'

const DIR = join(PROJECT_ROOT, 'migrations', 'server')

export async function loadMigrations(dir = DIR): Promise<Migration[]> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.sql'))
  return Promise.all(
    names.map(async (name) => ({
      name,
      sql: await readFile(`${dir}/${name}`, 'utf8'),
    })),
  )
}

/** The node-postgres side of the shared runner: one pooled client per migration. */
export function poolTarget(db: Db): MigrationTarget {
  return {
    transaction: (fn) =>
      transaction(db, (client) =>
        fn({
          exec: async (sql) => {
            await client.query(sql)
          },
          // rows come back untyped from pg; the runner states what it selects
          query: async (sql, params) =>
            (await client.query(sql, params)) as { rows: never[] },
        }),
      ),
  }
}

export async function migrateControlPlane(db: Db): Promise<string[]> {
  return migrate(poolTarget(db), await loadMigrations())
}
