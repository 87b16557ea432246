// The contract of the where-clause module: validate once, then use the clause twice, in the
// snapshot query (run by Postgres) and in the engine's evaluator (for replicated rows).
import type { PgType } from './pg-types.ts'
import type { ViewRef } from './subquery-view.ts'
import type { Expr, Subquery } from './tree.ts'

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

/** What analysis needs of a table a subquery reads. */
export type SubqueryTable = {
  columns: Map<string, ColumnInfo>
  primaryKey: string[]
}

/** A dependency as analysis finds it: a subquery, its result, and its own dependencies. */
export type DependencyDraft = {
  /** Identity: two subqueries with the same key are one dependency. */
  key: string
  subquery: Subquery
  /** Types of the selected columns. */
  types: PgType[]
  /** The subquery table's primary key: how its rows are told apart. */
  primaryKey: string[]
  view: ViewRef
  dependencies: DependencyDraft[]
  /** Columns the subquery's where reads. */
  whereColumns: Set<string>
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
  /** `sql` with each param written in as its typed literal: for COPY, which binds none. */
  inlineSql: string
  /** Columns the clause reads. */
  columns: Set<string>
  /**
   * `column = constant` conditions that must all hold for any matching row (top-level ANDs
   * only): the shape index uses them to skip shapes without evaluating them.
   */
  equalities: Equality[]
  /** True only when the clause is TRUE for the row (NULL and FALSE both exclude it). */
  matches(row: Record<string, string | null>): boolean
  /** Its subqueries (`x IN (SELECT …)`), when it has any. */
  subqueries?: CompiledSubqueries
}

type Row = Record<string, string | null>

/** One literal of a clause's normal form (dnf.ts). */
export type Position = {
  /** The leaf, without the negation the literal may carry. */
  expr: Expr
  negated: boolean
  /** A subquery position: its dependency and the row's columns tested against it. */
  sublink: { dep: number; columns: string[] } | null
  /** Whether the literal is TRUE for the row, against the dependencies' current results. */
  holds(row: Row): boolean
}

/** A clause with subqueries in disjunctive normal form, its literals numbered (dnf.ts). */
export type Dnf = {
  positions: Position[]
  /** Each disjunct's positions, in order. */
  disjuncts: number[][]
  /** Whether each dependency is tested under NOT (NOT IN), by dependency index. */
  negatedDeps: boolean[]
}

/** A subquery a clause depends on, compiled: what the shape must follow to evaluate it. */
export type CompiledDependency = {
  table: { schema: string; name: string }
  /** The selected columns, and their types. */
  columns: string[]
  types: PgType[]
  /** The subquery table's primary key: how its rows are told apart. */
  primaryKey: string[]
  /** Its current result, read when the clause is evaluated. */
  view: ViewRef
  /** Tested under NOT (NOT IN) by the clause that reads it. */
  negated: boolean
  /** The subquery's own where clause; null when it has none (every row counts). */
  where: DependencyWhere | null
}

/** A subquery's where clause, compiled to run on its own. */
export type DependencyWhere = {
  /** With only the params it uses, renumbered from $1 (`params`). */
  sql: string
  params: string[]
  columns: Set<string>
  equalities: Equality[]
  matches(row: Row): boolean
  subqueries?: CompiledSubqueries
}

export type CompiledSubqueries = {
  dependencies: CompiledDependency[]
  dnf: Dnf
  /**
   * A top-level `column IN (SELECT …)` every matching row satisfies: the shape can be found by
   * the row's value of `column` among the result of dependency `dep` (shapes/router.ts).
   */
  index: { dep: number; column: string } | null
}
