// The tables of a source's database its role can read: what the shape explorer lists, and the
// check before it counts one. Ordinary and partitioned tables only (views and materialized
// views cannot be shapes); reading needs SELECT on the table and USAGE on its schema.
import type pg from 'pg'
import { qualifiedName, type TableName } from '../../../engine/index.ts'

const READABLE = `has_schema_privilege(n.oid, 'USAGE') and has_table_privilege(c.oid, 'SELECT')`

// `^pg_` is every system schema (pg_catalog, pg_toast, each session's pg_temp_N and
// pg_toast_temp_N): Postgres refuses to create user schemas with that prefix.
const TABLES_SQL = `
  select n.nspname as schema, c.relname as name
    from pg_catalog.pg_class c
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
   where c.relkind in ('r', 'p')
     and n.nspname !~ '^pg_' and n.nspname <> 'information_schema'
     and ${READABLE}
   order by n.nspname collate "C", c.relname collate "C"`

// Names compared as values, never resolved as SQL: to_regclass would fail outright on a schema
// the role may not use, and a name needs no quoting rules here.
const TABLE_SQL = `
  select c.oid::int as oid, c.relkind in ('r', 'p') as is_table, ${READABLE} as readable
    from pg_catalog.pg_class c
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
   where n.nspname = $1 and c.relname = $2`

export async function listTables(client: pg.ClientBase): Promise<TableName[]> {
  const { rows } = await client.query<TableName>(TABLES_SQL)
  return rows.map(({ schema, name }) => ({ schema, name }))
}

type FoundTable =
  | { kind: 'readable'; oid: number }
  | { kind: 'missing' | 'unreadable'; message: string }

export async function findTable(
  client: pg.ClientBase,
  table: TableName,
): Promise<FoundTable> {
  const { rows } = await client.query<{
    oid: number
    is_table: boolean
    readable: boolean
  }>(TABLE_SQL, [table.schema, table.name])
  const row = rows[0]
  if (!row?.is_table)
    return {
      kind: 'missing',
      message: `Table ${qualifiedName(table)} does not exist.`,
    }
  if (!row.readable)
    return {
      kind: 'unreadable',
      message: `The source's role may not read table ${qualifiedName(table)}: it needs SELECT on the table and USAGE on its schema.`,
    }
  return { kind: 'readable', oid: row.oid }
}
