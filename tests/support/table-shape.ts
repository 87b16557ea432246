// A table's columns and primary key as a Postgres catalog holds them (the control plane's or
// PGlite's), and a synced table's declaration (src/shared/synced-tables.ts) spelled the same
// way, so the two sides' migrations can be checked against the one declaration.
import {
  syncedTables,
  type SyncedTableName,
} from '../../src/shared/synced-tables.ts'

/** node-postgres's pool and PGlite both answer this. */
export type Query = <R extends Record<string, unknown>>(
  sql: string,
  params: unknown[],
) => Promise<{ rows: R[] }>

export type TableShape = {
  /** Each column's type as Postgres names it (`timestamp with time zone`), and nullability. */
  columns: Record<string, { type: string; nullable: boolean }>
  primaryKey: string[]
}

/** `table` in the public schema as the database has it; no columns if there is no such table. */
export async function tableShape(
  query: Query,
  table: string,
): Promise<TableShape> {
  const { rows: columns } = await query<{
    name: string
    type: string
    nullable: boolean
  }>(
    `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type,
            not a.attnotnull as nullable
       from pg_attribute a
       join pg_class c on c.oid = a.attrelid
       join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relname = $1 and a.attnum > 0 and not a.attisdropped
      order by a.attnum`,
    [table],
  )
  const { rows: key } = await query<{ name: string }>(
    `select a.attname as name
       from pg_index i
       join pg_class c on c.oid = i.indrelid
       join pg_namespace n on n.oid = c.relnamespace
       cross join lateral unnest(i.indkey) with ordinality k(attnum, position)
       join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
      where n.nspname = 'public' and c.relname = $1 and i.indisprimary
      order by k.position`,
    [table],
  )
  return {
    columns: Object.fromEntries(
      columns.map(({ name, type, nullable }) => [name, { type, nullable }]),
    ),
    primaryKey: key.map((k) => k.name),
  }
}

/** `table`'s declaration, its types named as Postgres names them (`timestamptz` is an alias). */
export async function declaredShape(
  query: Query,
  table: SyncedTableName,
): Promise<TableShape> {
  const declared = syncedTables[table]
  const columns: TableShape['columns'] = {}
  for (const [name, { type, nullable }] of Object.entries(declared.columns)) {
    const { rows } = await query<{ type: string }>(
      'select format_type($1::text::regtype, null) as type',
      [type],
    )
    columns[name] = { type: rows[0]!.type, nullable }
  }
  return { columns, primaryKey: [...declared.primaryKey] }
}
