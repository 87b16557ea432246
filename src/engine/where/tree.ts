// The validated, fully typed expression tree: every node knows its Postgres type and every
// implicit coercion is an explicit `cast` node, so the SQL and the evaluator both follow it.
import type { BoolTestType } from 'libpg-query'
import type { PgType } from './pg-types.ts'
import type { ViewRef } from './subquery-view.ts'
import type { Datum, Value } from './values/value.ts'

/** An operator or function body; strict ones are only called with non-null arguments. */
export type Impl = (args: Datum[]) => Datum

/**
 * How the snapshot SQL writes a call: `(a op b)`, `(op a)` or `name(a, b)`, with `VARIADIC`
 * before a function's last argument when it is an array spread into a variadic parameter.
 */
export type SqlForm = {
  kind: 'op' | 'fn'
  text: string
  collateC?: boolean
  variadic?: boolean
}

export type Signature = {
  args: PgType[]
  result: PgType
  impl: Impl
  /** False when the body sees NULL arguments itself (array_append, concat). */
  strict: boolean
  sql: SqlForm
}

type Typed<T> = T & { type: PgType }

export type Expr =
  /** A literal; `literal` is its SQL text (the clause's own spelling), null for NULL. */
  | Typed<{ kind: 'const'; value: Datum; literal: string | null }>
  | Typed<{ kind: 'param'; index: number; value: Datum }>
  | Typed<{ kind: 'column'; name: string }>
  | Typed<{ kind: 'call'; sig: Signature; args: Expr[] }>
  | Typed<{ kind: 'cast'; arg: Expr; impl: (v: Value) => Datum }>
  | Typed<{ kind: 'and' | 'or'; args: Expr[] }>
  | Typed<{ kind: 'not'; arg: Expr }>
  | Typed<{ kind: 'null-test'; arg: Expr; negated: boolean }>
  | Typed<{ kind: 'bool-test'; arg: Expr; test: BoolTestType }>
  | Typed<{
      kind: 'distinct'
      sig: Signature
      args: [Expr, Expr]
      negated: boolean
    }>
  | Typed<{
      kind: 'quantified'
      sig: Signature
      args: [Expr, Expr]
      all: boolean
    }>
  /** `left IN (items)`, all of one type compared with `sig`. */
  | Typed<{
      kind: 'in'
      sig: Signature
      left: Expr
      items: Expr[]
      negated: boolean
    }>
  | Typed<{ kind: 'coalesce'; args: Expr[] }>
  | Typed<{
      kind: 'min-max'
      args: Expr[]
      greatest: boolean
      compare: Compare
    }>
  | Typed<{ kind: 'array'; elements: Expr[] }>
  /** `arg[i]...` (elements) or `arg[l:u]...` (a slice; a missing bound is undefined). */
  | Typed<{
      kind: 'subscript'
      arg: Expr
      indices: { lower?: Expr; upper?: Expr }[]
      slice: boolean
    }>
  /**
   * `lhs IN (subquery)`, lhs being `columns` of the row: tested against the subquery's
   * current result (`view`, kept by the shape), one dependency (`dep`) of the clause.
   */
  | Typed<{
      kind: 'sublink'
      columns: string[]
      dep: number
      subquery: Subquery
      view: ViewRef
    }>

/** The `SELECT cols FROM table WHERE …` of a sublink. */
export type Subquery = {
  table: { schema: string; name: string }
  /** The selected columns, in order (the lhs's types, one for one). */
  columns: string[]
  where: Expr | null
}

export type Compare = (a: Value, b: Value) => number

/** A literal, NULL or parameter whose type the context has not decided yet. */
type Unknown = {
  kind: 'unknown'
  type: 'unknown'
  text: string | null
  /** Set for `$n`. */
  param?: number
  location: number
}

export type Node = Expr | Unknown
