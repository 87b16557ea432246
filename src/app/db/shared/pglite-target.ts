// The PGlite side of the shared migrations runner (src/shared/migrations.ts).
import type { PGliteInterface } from '@electric-sql/pglite'
import type { MigrationTarget } from '../../../shared/migrations.ts'

export function pgliteTarget(pg: PGliteInterface): MigrationTarget {
  return {
    transaction: (fn) =>
      pg.transaction((tx) =>
        fn({
          exec: async (sql) => {
            await tx.exec(sql)
          },
          // rows come back untyped; the runner states what it selects
          query: async (sql, params) =>
            (await tx.query(sql, params)) as { rows: never[] },
        }),
      ),
  }
}
