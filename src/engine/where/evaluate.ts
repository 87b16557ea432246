// Compiles the typed tree into closures once, so matching a row walks no AST: three-valued
// logic as in Postgres (NULL propagation, AND/OR absorbing NULL, IN/ANY with NULL elements),
// and constant subtrees folded at compile time (their errors become compile errors).
import { resetBudget } from './budget.ts'
import { EvalError, WhereError } from './errors.ts'
import type { Expr } from './tree.ts'
import { arrayElement, arraySlice } from './values/array-subscript.ts'
import { parseValue } from './values/io.ts'
import type { Datum, PgArray, Value } from './values/value.ts'

type Row = Record<string, string | null>
export type Eval = (row: Row) => Datum

function column(name: string, type: string): Eval {
  // Column text parses the same way every time: remember the last one.
  let lastText: string | undefined
  let lastValue: Value | undefined
  return (row) => {
    // Own string values only: a missing column reads as NULL, and so does `constructor`.
    const text = Object.hasOwn(row, name) ? row[name] : null
    if (typeof text !== 'string') return null
    if (text !== lastText || lastValue === undefined) {
      lastValue = parseValue(type, text)
      lastText = text
    }
    return lastValue
  }
}

function bool(args: Eval[], and: boolean): Eval {
  // AND: any FALSE wins, else any NULL makes NULL; OR mirrors it.
  return (row) => {
    let sawNull = false
    for (const f of args) {
      const v = f(row)
      if (v === null) sawNull = true
      else if (v !== and) return v
    }
    return sawNull ? null : and
  }
}

function call(e: Extract<Expr, { kind: 'call' }>, args: Eval[]): Eval {
  const { impl, strict } = e.sig
  if (!strict) return (row) => impl(args.map((f) => f(row)))
  const [a, b] = args
  if (args.length === 1 && a)
    return (row) => {
      const x = a(row)
      return x === null ? null : impl([x])
    }
  if (args.length === 2 && a && b)
    return (row) => {
      const x = a(row)
      if (x === null) return null
      const y = b(row)
      return y === null ? null : impl([x, y])
    }
  return (row) => {
    const values = args.map((f) => f(row))
    return values.includes(null) ? null : impl(values)
  }
}

/** x op ANY/ALL (array): an empty array decides before a NULL x does, as in Postgres. */
function quantified(
  e: Extract<Expr, { kind: 'quantified' }>,
  l: Eval,
  r: Eval,
): Eval {
  const { impl } = e.sig
  const all = e.all
  return (row) => {
    const array = r(row) as PgArray | null
    if (array === null) return null
    if (array.items.length === 0) return all
    const x = l(row)
    if (x === null) return null
    let sawNull = false
    for (const item of array.items) {
      const v = item === null ? null : impl([x, item])
      if (v === null) sawNull = true
      else if (v !== all) return v
    }
    return sawNull ? null : all
  }
}

function inList(
  e: Extract<Expr, { kind: 'in' }>,
  l: Eval,
  items: Eval[],
): Eval {
  const { impl } = e.sig
  const negated = e.negated
  return (row) => {
    const x = l(row)
    if (x === null) return null
    let sawNull = false
    for (const f of items) {
      const v = f(row)
      const eq = v === null ? null : impl([x, v])
      if (eq === true) return !negated
      if (eq === null) sawNull = true
    }
    return sawNull ? null : negated
  }
}

/** `a[i]...` or `a[l:u]...`: a NULL array or subscript makes NULL. */
function subscript(e: Extract<Expr, { kind: 'subscript' }>): Eval {
  const arg = compile(e.arg)
  const bound = (b?: Expr) => (b ? compile(b) : undefined)
  const bounds = e.indices.map((i) => ({
    lower: bound(i.lower),
    upper: bound(i.upper),
  }))
  const read = (f: Eval | undefined, row: Row): number | null | undefined =>
    f ? (f(row) as number | null) : undefined
  if (!e.slice)
    return (row) => {
      const a = arg(row) as PgArray | null
      if (a === null) return null
      const indices: number[] = []
      for (const b of bounds) {
        const i = read(b.upper, row)
        if (i === null || i === undefined) return null
        indices.push(i)
      }
      return arrayElement(a, indices)
    }
  return (row) => {
    const a = arg(row) as PgArray | null
    if (a === null) return null
    const ranges: { lower?: number; upper?: number }[] = []
    for (const b of bounds) {
      const lower = read(b.lower, row)
      const upper = read(b.upper, row)
      if (lower === null || upper === null) return null
      ranges.push({ lower, upper })
    }
    return arraySlice(a, ranges)
  }
}

const BOOL_TESTS: Record<string, (v: Datum) => boolean> = {
  IS_TRUE: (v) => v === true,
  IS_NOT_TRUE: (v) => v !== true,
  IS_FALSE: (v) => v === false,
  IS_NOT_FALSE: (v) => v !== false,
  IS_UNKNOWN: (v) => v === null,
  IS_NOT_UNKNOWN: (v) => v !== null,
}

function build(e: Expr): Eval {
  switch (e.kind) {
    case 'const':
    case 'param': {
      const value = e.value
      return () => value
    }
    case 'column':
      return column(e.name, e.type)
    case 'cast': {
      const arg = compile(e.arg)
      const impl = e.impl
      return (row) => {
        const v = arg(row)
        return v === null ? null : impl(v)
      }
    }
    case 'call':
      return call(e, e.args.map(compile))
    case 'and':
    case 'or':
      return bool(e.args.map(compile), e.kind === 'and')
    case 'not': {
      const arg = compile(e.arg)
      return (row) => {
        const v = arg(row)
        return v === null ? null : !v
      }
    }
    case 'null-test': {
      const arg = compile(e.arg)
      const negated = e.negated
      return (row) => (arg(row) === null) !== negated
    }
    case 'bool-test': {
      const arg = compile(e.arg)
      const test = BOOL_TESTS[e.test] as (v: Datum) => boolean
      return (row) => test(arg(row))
    }
    case 'distinct': {
      const [l, r] = e.args.map(compile) as [Eval, Eval]
      const { impl } = e.sig
      const negated = e.negated
      return (row) => {
        const x = l(row)
        const y = r(row)
        const same = x === null || y === null ? x === y : impl([x, y]) === true
        return same === negated
      }
    }
    case 'quantified': {
      const [l, r] = e.args.map(compile) as [Eval, Eval]
      return quantified(e, l, r)
    }
    case 'in':
      return inList(e, compile(e.left), e.items.map(compile))
    case 'coalesce': {
      const args = e.args.map(compile)
      return (row) => {
        for (const f of args) {
          const v = f(row)
          if (v !== null) return v
        }
        return null
      }
    }
    case 'min-max': {
      const args = e.args.map(compile)
      const sign = e.greatest ? 1 : -1
      const compare = e.compare
      return (row) => {
        let best: Datum = null
        for (const f of args) {
          const v = f(row)
          if (v !== null && (best === null || sign * compare(v, best) > 0))
            best = v
        }
        return best
      }
    }
    case 'subscript':
      return subscript(e)
    case 'sublink': {
      const { columns, view } = e
      const [only] = columns
      // The result is read at each call: the shape swaps it as the subquery's rows move.
      if (columns.length === 1 && only !== undefined)
        return (row) => {
          const v = Object.hasOwn(row, only) ? row[only] : null
          return view.current.member([typeof v === 'string' ? v : null])
        }
      return (row) =>
        view.current.member(
          columns.map((c) => {
            const v = Object.hasOwn(row, c) ? row[c] : null
            return typeof v === 'string' ? v : null
          }),
        )
    }
    case 'array': {
      const elements = e.elements.map(compile)
      return (row) => {
        const items = elements.map((f) => f(row))
        return { dims: [items.length], lbounds: [1], items }
      }
    }
  }
}

function isConstant(e: Expr): boolean {
  switch (e.kind) {
    case 'const':
    case 'param':
      return true
    case 'column':
    case 'sublink':
      return false
    case 'cast':
    case 'not':
    case 'null-test':
    case 'bool-test':
      return isConstant(e.arg)
    case 'in':
      return isConstant(e.left) && e.items.every(isConstant)
    case 'array':
      return e.elements.every(isConstant)
    case 'subscript':
      return (
        isConstant(e.arg) &&
        e.indices.every(
          (i) =>
            (!i.lower || isConstant(i.lower)) &&
            (!i.upper || isConstant(i.upper)),
        )
      )
    default:
      return e.args.every(isConstant)
  }
}

/** A closure computing `e` for a row; subtrees without columns are computed here, once. */
export function compile(e: Expr): Eval {
  const f = build(e)
  if (e.kind === 'const' || e.kind === 'param' || !isConstant(e)) return f
  try {
    const value = f({})
    return () => value
  } catch (error) {
    if (error instanceof EvalError) throw new WhereError(error.message)
    throw error
  }
}

/**
 * The clause as a row test. Made apart from compileWhere: a closure there would keep that
 * call's whole scope (the parse tree, the typed tree, the columns) for as long as the shape
 * lives, some 50 objects per shape for every old-generation collection to mark.
 */
export function matcher(evaluate: Eval): (row: Row) => boolean {
  // A row the clause fails on (division by zero, a value out of range) is not in the shape:
  // Postgres would have failed the snapshot rather than return it.
  return (row) => {
    resetBudget()
    try {
      return evaluate(row) === true
    } catch (error) {
      if (error instanceof EvalError) return false
      throw error
    }
  }
}
