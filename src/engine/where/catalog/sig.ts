// Small builders for catalog entries, so each operator family reads as a table.
import type { PgType } from '../pg-types.ts'
import type { Impl, Signature, SqlForm } from '../tree.ts'
import type { Value } from '../values/value.ts'

export function op(
  text: string,
  args: PgType[],
  result: PgType,
  impl: Impl,
  extra: { strict?: boolean; collateC?: boolean } = {},
): Signature {
  const sql: SqlForm = { kind: 'op', text, collateC: extra.collateC }
  return { args, result, impl, strict: extra.strict ?? true, sql }
}

export function fn(
  name: string,
  args: PgType[],
  result: PgType,
  impl: Impl,
  extra: { strict?: boolean; collateC?: boolean } = {},
): Signature {
  const sql: SqlForm = { kind: 'fn', text: name, collateC: extra.collateC }
  return { args, result, impl, strict: extra.strict ?? true, sql }
}

/** Adapts a two-argument body of known value types (strict: never sees NULL). */
export function binary<A extends Value, B extends Value>(
  f: (a: A, b: B) => Value,
): Impl {
  return (args) => f(args[0] as A, args[1] as B)
}

export function unary<A extends Value>(f: (a: A) => Value): Impl {
  return (args) => f(args[0] as A)
}
