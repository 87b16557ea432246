// The browser store's tables, as migrations/client/ makes them on real PGlite, against the one
// declaration of the synced tables (src/shared/synced-tables.ts) that the gateway sends.
import { PGlite } from '@electric-sql/pglite'
import { readdirSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateLocal } from '../../src/app/db/shared/migrations.ts'
import type { Migration } from '../../src/shared/migrations.ts'
import { syncedTableNames } from '../../src/shared/synced-tables.ts'
import { declaredShape, tableShape } from '../support/table-shape.ts'

const dir = new URL('../../migrations/client/', import.meta.url)
const shipped: Migration[] = readdirSync(dir)
  .filter((name) => name.endsWith('.sql'))
  .map((name) => ({ name, sql: readFileSync(new URL(name, dir), 'utf8') }))

// Loading PGlite's wasm takes seconds on a busy 2-core machine (the hook's limit too).
describe('the store’s synced tables', { timeout: 60_000 }, () => {
  let pg: PGlite
  const query = <R extends Record<string, unknown>>(
    sql: string,
    params: unknown[],
  ) => pg.query<R>(sql, params)
  beforeAll(async () => {
    pg = await PGlite.create()
    await migrateLocal(pg, shipped)
  }, 60_000)
  afterAll(async () => {
    await pg.close()
  })

  it.each(syncedTableNames)(
    '%s has exactly the declared columns, types and primary key',
    async (table) => {
      const declared = await declaredShape(query, table)
      // The store's own column beside the synced ones (await-txid.ts).
      declared.columns.synced_txids = { type: 'bigint[]', nullable: true }
      expect(await tableShape(query, table)).toEqual(declared)
    },
  )

  it('syncs no table that is not declared', async () => {
    const { rows } = await pg.query<{ table: string }>(
      `select c.relname as table from pg_attribute a join pg_class c on c.oid = a.attrelid
        where a.attname = 'synced_txids' and c.relkind = 'r' order by 1`,
    )
    expect(rows.map((r) => r.table)).toEqual([...syncedTableNames].sort())
  })
})
