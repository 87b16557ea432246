// The control plane's tables, as migrations/server/ makes them, hold every column the gateway
// sends (src/shared/synced-tables.ts) with the type the browser's store keeps it as.
import { describe, expect, it } from 'vitest'
import {
  syncedTableNames,
  syncedTables,
} from '../../src/shared/synced-tables.ts'
import { useControlPlaneDatabase } from '../support/database.ts'
import { declaredShape, tableShape } from '../support/table-shape.ts'

const database = useControlPlaneDatabase()
const query = <R extends Record<string, unknown>>(
  sql: string,
  params: unknown[],
) => database.db.query<R>(sql, params)

describe('the synced tables on the control plane', () => {
  it.each(syncedTableNames)(
    '%s has the declared columns, types and primary key',
    async (table) => {
      const declared = await declaredShape(query, table)
      const actual = await tableShape(query, table)
      // The server's own columns (secrets, bookkeeping) are never sent: only those declared.
      const sent = Object.fromEntries(
        Object.keys(declared.columns).map((name) => [
          name,
          actual.columns[name],
        ]),
      )
      // A shape holds only rows whose scoping column is its `= $1` value, so that column may
      // be null on the server (an unclaimed source has no team) and never in the store.
      const { scope } = syncedTables[table]
      const scoped = sent[scope]
      if (scoped) sent[scope] = { ...scoped, nullable: false }
      expect({ columns: sent, primaryKey: actual.primaryKey }).toEqual(declared)
    },
  )
})
