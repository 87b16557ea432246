// What the engine knows about a table: its columns, their types and its primary key, read
// from the catalog; and the `electric-schema` header clients parse rows with.
import type pg from 'pg'
import type { ColumnInfo } from '../where/types.ts'
import { GENERATED_COLUMNS_VERSION } from '../replication/publication.ts'
import { DefinitionError, qualifiedName, type TableName } from './definition.ts'
import { typeModifiers } from './type-modifiers.ts'

type TableColumn = ColumnInfo & {
  pkIndex: number | null
  /** pg_attribute.atttypmod: a length, precision or interval range; -1 when none. */
  typeMod: number
  /** A generated column ('s' stored, 'v' virtual on Postgres 18), or ''. */
  generated: '' | 's' | 'v'
}

export type TableInfo = {
  table: TableName
  oid: number
  /** Column names and type oids in order: replication relations are compared against it. */
  signature: string
  columns: TableColumn[]
  /** Primary-key columns in key order; every column when the table has no primary key. */
  primaryKey: string[]
  /** Partitioned: its rows live in partitions, whose changes replication names (partitions.ts). */
  partitioned: boolean
  /**
   * Generated columns replication does not carry (all of them before Postgres 18, which
   * publishes stored ones): a shape must leave them out.
   */
  unpublished: string[]
}

export class TableNotFoundError extends Error {}

/** The relation exists but is not a table Postgres can replicate: nothing is altered. */
export class NotReplicableError extends Error {}

// Relation kinds Postgres has and replication does not, each with what to do instead.
const NOT_TABLES: Record<string, string> = {
  v: 'is a view: Postgres replicates tables, not views. Sync the tables it reads instead.',
  m: 'is a materialized view: Postgres does not replicate materialized views. Sync the tables it reads instead.',
  f: 'is a foreign table: its rows live on another server, which Postgres does not replicate from here.',
  S: 'is a sequence, not a table.',
}

const COLUMNS_SQL = `
  select a.attname as name,
         a.atttypid::int as raw_type_oid,
         (coalesce(et.typtype, t.typtype) = 'e')::text as is_enum,
         a.attnotnull::text as not_null,
         case when t.typcategory = 'A' then et.typname else t.typname end as type,
         case when t.typcategory = 'A' then et.oid else t.oid end as type_oid,
         case when t.typcategory = 'A' then greatest(a.attndims, 1) else 0 end as dims,
         a.atttypmod as type_mod,
         a.attgenerated::text as generated,
         (select k.n - 1 from unnest(i.indkey) with ordinality as k(attnum, n)
           where k.attnum = a.attnum) as pk_index
    from pg_attribute a
    join pg_type t on t.oid = a.atttypid
    left join pg_type et on et.oid = t.typelem
    left join pg_index i on i.indrelid = a.attrelid and i.indisprimary
   where a.attrelid = $1 and a.attnum > 0 and not a.attisdropped
   order by a.attnum`

export async function loadTableInfo(
  db: pg.ClientBase | pg.Pool,
  table: TableName,
): Promise<TableInfo> {
  // oid read as text (see not_null below), a number once parsed.
  const found = await db.query<{
    oid: string
    relkind: string
    relpersistence: string
    version: string
  }>(
    `select c.oid::int as oid, c.relkind, c.relpersistence,
            current_setting('server_version_num') as version
       from pg_class c where c.oid = to_regclass($1)`,
    [qualifiedName(table)],
  )
  const rel = found.rows[0]
  const name = qualifiedName(table)
  if (rel && NOT_TABLES[rel.relkind])
    throw new NotReplicableError(`${name} ${NOT_TABLES[rel.relkind]}`)
  if (rel?.relpersistence === 'u')
    throw new NotReplicableError(
      `Table ${name} is unlogged: its changes never reach the write-ahead log, so Postgres cannot replicate it. Run ALTER TABLE ${name} SET LOGGED to sync it.`,
    )
  if (!rel || !['r', 'p'].includes(rel.relkind) || rel.relpersistence === 't')
    throw new TableNotFoundError(
      `Table ${name} does not exist. If the table name contains capitals or special characters you must quote it.`,
    )
  const { rows } = await db.query<{
    name: string
    // Read as text: callers' pools may keep every value as Postgres text output.
    not_null: string
    type: string
    raw_type_oid: number
    is_enum: string
    type_oid: number
    dims: number
    type_mod: number
    pk_index: number | null
    generated: '' | 's' | 'v'
  }>(COLUMNS_SQL, [rel.oid])
  // Before 18 no generated column is published; from 18 stored ones are (publication.ts).
  const publishes = (g: string) =>
    g === '' || (g === 's' && Number(rel.version) >= GENERATED_COLUMNS_VERSION)
  const columns: TableColumn[] = rows.map((r) => ({
    name: r.name,
    type: r.type,
    typeOid: Number(r.type_oid),
    dims: Number(r.dims),
    notNull: r.not_null === 'true',
    enum: r.is_enum === 'true',
    pkIndex: r.pk_index === null ? null : Number(r.pk_index),
    typeMod: Number(r.type_mod),
    generated: r.generated,
  }))
  const pk = columns
    .filter((c) => c.pkIndex !== null)
    .sort((a, b) => (a.pkIndex ?? 0) - (b.pkIndex ?? 0))
    .map((c) => c.name)
  return {
    table,
    oid: Number(rel.oid),
    // What replication's relation messages will list: the columns it publishes.
    signature: columnSignature(
      rows
        .filter((r) => publishes(r.generated))
        .map((r) => ({ name: r.name, typeOid: Number(r.raw_type_oid) })),
    ),
    columns,
    primaryKey: pk.length > 0 ? pk : columns.map((c) => c.name),
    partitioned: rel.relkind === 'p',
    unpublished: rows.filter((r) => !publishes(r.generated)).map((r) => r.name),
  }
}

export function columnSignature(
  columns: Array<{ name: string; typeOid: number }>,
): string {
  return columns.map((c) => `${c.name}:${c.typeOid}`).join(',')
}

/** The `electric-schema` header for the columns a shape sends. */
function schemaHeader(info: TableInfo, columns: string[]): string {
  const schema: Record<string, Record<string, unknown>> = {}
  for (const column of info.columns) {
    if (!columns.includes(column.name)) continue
    const entry: Record<string, unknown> = { type: column.type }
    if (column.pkIndex !== null) entry.pk_index = column.pkIndex
    if (column.dims > 0) entry.dims = column.dims
    if (column.notNull) entry.not_null = true
    Object.assign(entry, typeModifiers(column.type, column.typeMod))
    schema[column.name] = entry
  }
  return JSON.stringify(schema)
}

/**
 * Table facts shared between shapes: the shapes of one table (ten thousand `team_id = $1`
 * shapes) hold one copy of its columns and primary key rather than one each, less for every
 * old-generation collection to mark. A table whose facts changed in any way gets a new entry;
 * the old one lives on only in the shapes built with it.
 */
export class SharedTableInfo {
  private byTable = new Map<string, { info: TableInfo; text: string }>()

  /** `info`, or an equal one already handed out. */
  share(info: TableInfo): TableInfo {
    const key = qualifiedName(info.table)
    const text = JSON.stringify(info)
    const known = this.byTable.get(key)
    if (known?.text === text) return known.info
    this.byTable.set(key, { info, text })
    return info
  }
}

// The columns of a shared table info, their schema header and the table's name as messages
// carry it, made once for its shapes of every column (most shapes).
const allColumns = new WeakMap<TableInfo, SentColumns>()

type SentColumns = {
  columns: string[]
  schema: string
  relation: [string, string]
}

/**
 * Refuses a `columns` list that names a column the table does not have, or leaves out part of
 * its primary key, as Electric does: a client would otherwise get rows keyed by columns it did
 * not ask for, or silently miss one it did.
 */
export function checkColumns(
  info: TableInfo,
  wanted: string[] | null,
  queryable: string[] | null = null,
): void {
  if (!wanted) return
  // A missing key is named before unknown columns, in Electric's order. A table without a
  // primary key has every column as its key (loadTableInfo): only a declared one must be listed.
  const missing = info.columns
    .filter((c) => c.pkIndex !== null && !wanted.includes(c.name))
    .map((c) => c.name)
  if (missing.length > 0)
    throw new DefinitionError(
      'columns',
      `The list of columns must include all primary key columns, missing: ${missing.join(', ')}`,
    )
  // With queryable columns, a column outside them reads as unknown (Electric's words too).
  const names = new Set(queryable ?? info.columns.map((c) => c.name))
  const unknown = wanted.filter((c) => !names.has(c))
  if (unknown.length > 0)
    throw new DefinitionError(
      'columns',
      `The following columns are not found on the table: ${unknown.join(', ')}`,
    )
}

/**
 * Refuses `queryable_columns` that leave out part of the primary key or name a column the table
 * lacks, as Electric does. A table without a primary key is keyed by all its columns, so every
 * answer would send them all: a list leaving any out could not keep them from the client, and is
 * refused rather than ignored (Electric keys such rows otherwise and accepts it).
 */
export function checkQueryable(
  info: TableInfo,
  queryable: string[] | null,
): void {
  if (!queryable) return
  const keyed = info.columns.some((c) => c.pkIndex !== null)
  const missing = info.primaryKey.filter((c) => !queryable.includes(c))
  if (missing.length > 0)
    throw new DefinitionError(
      'queryable_columns',
      keyed
        ? `The list of queryable columns must include all primary key columns, missing: ${missing.join(', ')}`
        : `The table has no primary key, so its rows are keyed by every column: the list of queryable columns must include them all, missing: ${missing.join(', ')}`,
    )
  const names = new Set(info.columns.map((c) => c.name))
  const unknown = queryable.filter((c) => !names.has(c))
  if (unknown.length > 0)
    throw new DefinitionError(
      'queryable_columns',
      `The following queryable columns are not found on the table: ${unknown.join(', ')}`,
    )
}

/**
 * Refuses a shape that would send columns replication does not carry: it would get their
 * values from its snapshot and never again.
 */
export function checkPublished(info: TableInfo, wanted: string[] | null): void {
  if (info.unpublished.length === 0) return
  // Virtual ones (Postgres 18) keep the whole table from replicating: publish-table.ts says so.
  if (info.columns.some((c) => c.generated === 'v')) return
  const missing = sentColumns(info, wanted).columns.filter((c) =>
    info.unpublished.includes(c),
  )
  if (missing.length > 0)
    throw new DefinitionError(
      'columns',
      `These columns are generated, and Postgres before 18 does not replicate generated columns: ${missing.join(', ')}. Leave them out by listing the columns to sync in the 'columns' parameter.`,
    )
}

/** The columns a shape sends (`wanted`, or all; the primary key always), their header, the table. */
export function sentColumns(
  info: TableInfo,
  wanted: string[] | null,
): SentColumns {
  const cached = wanted ? undefined : allColumns.get(info)
  if (cached) return cached
  const columns = info.columns
    .map((c) => c.name)
    .filter((c) => !wanted || wanted.includes(c) || info.primaryKey.includes(c))
  const sent: SentColumns = {
    columns,
    schema: schemaHeader(info, columns),
    relation: [info.table.schema, info.table.name],
  }
  if (!wanted) allColumns.set(info, sent)
  return sent
}
