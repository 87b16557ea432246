// The contract of the where-clause module: validate once, then use the clause twice, in the
// snapshot query (run by Postgres) and in the engine's evaluator (for replicated rows).

export type ColumnInfo = {
  name: string
  /** pg_type.typname of the column, or of the element type for arrays. */
  type: string
  typeOid: number
  /** Array dimensions; 0 for scalars. */
  dims: number
  notNull: boolean
  /**
   * True when the type is an enum (pg_type.typtype = 'e'): where clauses then compare it by its
   * labels. A type the where clause does not know and that is not an enum is only usable in
   * `IS [NOT] NULL` and `::text`.
   */
  enum?: boolean
}

export type Equality = {
  column: string
  /** The constant in the column's canonical Postgres text output (what replication sends). */
  value: string
}

export type CompiledWhere = {
  /** The original clause text, for messages. */
  source: string
  /** A boolean SQL expression for the snapshot, referencing the bound params as $1..$n. */
  sql: string
  /** Values bound to $1..$n of `sql`, in order (the clause's params, as text). */
  params: string[]
  /** Columns the clause reads. */
  columns: Set<string>
  /**
   * `column = constant` conditions that must all hold for any matching row (top-level ANDs
   * only): the shape index uses them to skip shapes without evaluating them.
   */
  equalities: Equality[]
  /** True only when the clause is TRUE for the row (NULL and FALSE both exclude it). */
  matches(row: Record<string, string | null>): boolean
}
