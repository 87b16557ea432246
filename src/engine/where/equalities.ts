// The `column = constant` conditions every matching row satisfies (top-level ANDs), with the
// constant in the column's own text output, for the shape index. Only types whose output we
// know exactly are listed: a missing equality costs an evaluation, a wrong one loses rows.
import { isEnum, isInteger, type PgType } from './pg-types.ts'
import type { Expr } from './tree.ts'
import type { Equality } from './types.ts'
import { formatValue } from './values/io.ts'

const EXACT = new Set(['bool', 'uuid', 'text', 'varchar', 'name', 'date'])

function conjuncts(e: Expr): Expr[] {
  return e.kind === 'and' ? e.args.flatMap(conjuncts) : [e]
}

/** The column a side reads, possibly through the enum → text cast we insert. */
function columnOf(e: Expr): { name: string; type: PgType } | undefined {
  if (e.kind === 'column') return e
  if (
    e.kind === 'cast' &&
    e.arg.kind === 'column' &&
    isEnum(e.arg.type) &&
    e.type === 'text'
  )
    return e.arg
  return undefined
}

function canonical(
  columnType: PgType,
  valueType: PgType,
  value: unknown,
): string | undefined {
  if (isInteger(columnType) && isInteger(valueType)) return String(value)
  if (isEnum(columnType) && valueType === 'text') return value as string
  if (columnType === valueType && EXACT.has(columnType))
    return formatValue(columnType, value as never)
  return undefined
}

export function extractEqualities(e: Expr): Equality[] {
  const out: Equality[] = []
  for (const c of conjuncts(e)) {
    if (c.kind !== 'call' || c.sig.sql.kind !== 'op' || c.sig.sql.text !== '=')
      continue
    const [a, b] = c.args
    if (!a || !b) continue
    for (const [col, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const column = columnOf(col)
      if (!column || (other.kind !== 'const' && other.kind !== 'param'))
        continue
      if (other.value === null) continue
      const value = canonical(column.type, other.type, other.value)
      if (value !== undefined) out.push({ column: column.name, value })
    }
  }
  return out
}
