// What analysis carries along (columns, params and what got used), and the steps every
// construct shares: failing with a location, giving unknowns a type, applying a signature.
import { castBetween } from '../catalog/casts.ts'
import { operatorCandidates } from '../catalog/operators.ts'
import { WhereError } from '../errors.ts'
import {
  isEnum,
  isOpaque,
  readable,
  UNKNOWN,
  type PgType,
} from '../pg-types.ts'
import { selectCandidate } from '../resolve.ts'
import type { Expr, Node, Signature } from '../tree.ts'
import type { Node as PgNode } from 'libpg-query'
import { tryParseValue } from '../values/io.ts'
import type { ColumnInfo, DependencyDraft, SubqueryTable } from '../types.ts'

export type Context = {
  columns: Map<string, ColumnInfo>
  params: readonly string[]
  /** Types given to `$n` so far; later uses of `$n` already have it, as in Postgres. */
  paramTypes: Map<number, PgType>
  paramsUsed: Set<number>
  columnsUsed: Set<string>
  /** Steps run once the whole clause is analysed (params typed by later context). */
  deferred: (() => void)[]
  /**
   * The analyser itself, for the helpers that analyse sub-expressions (operators, calls):
   * analyze.ts imports them, so they reach it through here instead of importing it back.
   */
  analyze: (node: PgNode, ctx: Context) => Node
  /** The same for a boolean argument (a subquery's where). */
  toBool: (node: Node, what: string, ctx: Context) => Expr
  /** Absent where subqueries are refused (`subqueriesRefused` says why). */
  subqueries?: SubqueryScope
  subqueriesRefused?: string
}

type SubqueryScope = {
  /** Every table the clause's subqueries read, loaded before analysis. */
  tables: Map<string, SubqueryTable>
  /** This level's dependencies, by index (a subquery's own are its draft's). */
  dependencies: DependencyDraft[]
  /** Subqueries met so far at every level. */
  count: { n: number }
}

/** The length of `SELECT 1 WHERE `, which the parser's locations count. */
export const PREFIX = 'SELECT 1 WHERE '

export function fail(message: string, location?: number): never {
  const at =
    location === undefined || location < PREFIX.length
      ? undefined
      : location - PREFIX.length
  throw new WhereError(message, at)
}

function valueOf(type: PgType, text: string, location: number, what: string) {
  const value = tryParseValue(type, text)
  if (value === undefined)
    fail(
      `invalid input syntax for type ${readable(type)}${what}: "${text}"`,
      location,
    )
  return value
}

/** Gives an unknown its type, or inserts the (implicit) cast from a known type. */
export function coerce(node: Node, target: PgType, ctx: Context): Expr {
  if (node.kind !== 'unknown') {
    if (node.type === target) return node
    const impl = castBetween(node.type, target)
    if (!impl)
      fail(`cannot cast type ${readable(node.type)} to ${readable(target)}`)
    return { kind: 'cast', type: target, arg: node, impl }
  }
  const type = target === UNKNOWN ? 'text' : target
  // Enum and opaque types are never named in the snapshot SQL (see resolve.ts commonType).
  if (isEnum(type) || isOpaque(type))
    fail(`cannot use a literal of type ${readable(type)}`, node.location)
  if (node.param !== undefined) {
    const n = node.param
    const previous = ctx.paramTypes.get(n)
    if (previous !== undefined && previous !== type)
      fail(
        `inconsistent types deduced for parameter $${n}: ${readable(previous)} and ${readable(type)}`,
        node.location,
      )
    ctx.paramTypes.set(n, type)
    const value = valueOf(type, node.text ?? '', node.location, ` in $${n}`)
    return { kind: 'param', type, index: n, value }
  }
  if (node.text === null)
    return { kind: 'const', type, value: null, literal: null }
  const value = valueOf(type, node.text, node.location, '')
  return { kind: 'const', type, value, literal: node.text }
}

/** An explicit cast (`x::type`, `CAST(x AS type)`, or a type name called as a function). */
export function castTo(
  arg: Node,
  target: PgType,
  ctx: Context,
  location?: number,
): Expr {
  if (arg.kind === 'unknown' || arg.type === target)
    return coerce(arg, target, ctx)
  const impl = castBetween(arg.type, target)
  if (!impl)
    fail(
      `cannot cast type ${readable(arg.type)} to ${readable(target)}`,
      location,
    )
  return { kind: 'cast', type: target, arg, impl }
}

export function apply(sig: Signature, args: Node[], ctx: Context): Expr {
  const coerced = args.map((a, i) => coerce(a, sig.args[i] as PgType, ctx))
  return { kind: 'call', type: sig.result, sig, args: coerced }
}

const ORDERING = new Set(['<', '>', '<=', '>='])

/** Postgres's operator resolution over our catalog, with its error messages. */
export function resolveOperatorTypes(
  name: string,
  types: PgType[],
  location?: number,
): Signature {
  const shown = (sym: string) =>
    types.length === 2
      ? `${readable(types[0] as PgType)} ${sym} ${readable(types[1] as PgType)}`
      : `${sym} ${readable(types[0] as PgType)}`
  if (ORDERING.has(name) && types.some(isEnum))
    fail(
      'enum values can only be compared with = and <> (as their labels)',
      location,
    )
  const result = selectCandidate(
    types,
    operatorCandidates(name, types),
    types.length === 2,
  )
  if ('ok' in result) return result.ok
  const sym = LIKE_NAMES[name] ?? name
  fail(
    result.error === 'none'
      ? `operator does not exist: ${shown(sym)}`
      : `operator is not unique: ${shown(sym)}`,
    location,
  )
}

const LIKE_NAMES: Record<string, string> = {
  '~~': 'LIKE',
  '!~~': 'NOT LIKE',
  '~~*': 'ILIKE',
  '!~~*': 'NOT ILIKE',
}

export function resolveOperator(
  name: string,
  args: Node[],
  location?: number,
): Signature {
  return resolveOperatorTypes(
    name,
    args.map((a) => a.type),
    location,
  )
}

export function applyOperator(
  name: string,
  args: Node[],
  ctx: Context,
  location?: number,
): Expr {
  return apply(resolveOperator(name, args, location), args, ctx)
}
