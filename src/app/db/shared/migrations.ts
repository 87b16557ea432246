// The browser store's schema: migrations/client/*.sql, bundled at build time and applied once
// each by the same runner the server uses, so a new release upgrades a stored database.
import type { PGliteInterface } from '@electric-sql/pglite'
import { migrate, type Migration } from '../../../shared/migrations.ts'
import { pgliteTarget } from './pglite-target.ts'

const files = import.meta.glob<string>('../../../../migrations/client/*.sql', {
  query: '?raw',
  import: 'default',
  eager: true,
})

const clientMigrations: Migration[] = Object.entries(files).map(
  ([path, sql]) => ({ name: path.slice(path.lastIndexOf('/') + 1), sql }),
)

export function migrateLocal(
  pg: PGliteInterface,
  migrations: Migration[] = clientMigrations,
): Promise<string[]> {
  return migrate(pgliteTarget(pg), migrations)
}
