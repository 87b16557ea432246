// Operator syntax (A_Expr): plain operators, LIKE/ILIKE, IS [NOT] DISTINCT FROM, [NOT] IN,
// [NOT] BETWEEN [SYMMETRIC] (expanded into comparisons, as Postgres does) and op ANY/ALL.
import type { A_Expr, Node as PgNode } from 'libpg-query'
import {
  arrayOf,
  elementOf,
  isArray,
  readable,
  UNKNOWN,
  type PgType,
} from '../pg-types.ts'
import { commonType } from '../resolve.ts'
import type { Expr, Node } from '../tree.ts'
import { likeMatcher } from '../values/text.ts'
import {
  apply,
  applyOperator,
  coerce,
  fail,
  resolveOperator,
  resolveOperatorTypes,
  type Context,
} from './context.ts'

function operatorName(e: A_Expr): string {
  const parts = (e.name ?? []).map((n) =>
    'String' in n ? (n.String.sval ?? '') : '',
  )
  if (parts.length === 2 && parts[0] === 'pg_catalog') return parts[1] as string
  if (parts.length !== 1)
    fail(`operator ${parts.join('.')} is not supported`, e.location)
  return parts[0] as string
}

function operand(
  node: PgNode | undefined,
  ctx: Context,
  location?: number,
): Node {
  if (!node) fail('malformed expression', location)
  return ctx.analyze(node, ctx)
}

function listItems(node: PgNode | undefined, location?: number): PgNode[] {
  if (!node || !('List' in node)) fail('a list was expected here', location)
  return node.List.items ?? []
}

function distinct(e: A_Expr, negated: boolean, ctx: Context): Expr {
  const args = [
    operand(e.lexpr, ctx, e.location),
    operand(e.rexpr, ctx, e.location),
  ]
  const sig = resolveOperator('=', args, e.location)
  const [l, r] = args.map((a, i) => coerce(a, sig.args[i] as PgType, ctx)) as [
    Expr,
    Expr,
  ]
  return { kind: 'distinct', type: 'bool', sig, args: [l, r], negated }
}

function inList(e: A_Expr, ctx: Context): Expr {
  const negated = operatorName(e) === '<>'
  const left = operand(e.lexpr, ctx, e.location)
  const items = listItems(e.rexpr, e.location).map((i) => ctx.analyze(i, ctx))
  const common = commonType([left.type, ...items.map((i) => i.type)])
  if (common !== undefined) {
    const sig = resolveOperatorTypes('=', [common, common], e.location)
    const l = coerce(left, sig.args[0] as PgType, ctx)
    const rest = items.map((i) => coerce(i, sig.args[1] as PgType, ctx))
    return { kind: 'in', type: 'bool', sig, left: l, items: rest, negated }
  }
  // No common type: each item is compared on its own, as an OR of equalities.
  const ors = items.map((i) => applyOperator('=', [left, i], ctx, e.location))
  const any: Expr = { kind: 'or', type: 'bool', args: ors }
  return negated ? { kind: 'not', type: 'bool', arg: any } : any
}

function between(e: A_Expr, ctx: Context): Expr {
  const x = operand(e.lexpr, ctx, e.location)
  const [lo, hi] = listItems(e.rexpr, e.location).map((i) =>
    ctx.analyze(i, ctx),
  ) as [Node, Node]
  const cmp = (name: string, a: Node, b: Node) =>
    applyOperator(name, [a, b], ctx, e.location)
  const and = (...args: Expr[]): Expr => ({ kind: 'and', type: 'bool', args })
  const or = (...args: Expr[]): Expr => ({ kind: 'or', type: 'bool', args })
  const inside = (a: Node, b: Node) => and(cmp('>=', x, a), cmp('<=', x, b))
  const outside = (a: Node, b: Node) => or(cmp('<', x, a), cmp('>', x, b))
  switch (e.kind) {
    case 'AEXPR_BETWEEN':
      return inside(lo, hi)
    case 'AEXPR_NOT_BETWEEN':
      return outside(lo, hi)
    case 'AEXPR_BETWEEN_SYM':
      return or(inside(lo, hi), inside(hi, lo))
    default:
      return and(outside(lo, hi), outside(hi, lo))
  }
}

// `x op ANY(array)`: the operator is resolved against the array's element type.
function quantified(e: A_Expr, all: boolean, ctx: Context): Expr {
  const name = operatorName(e)
  const left = operand(e.lexpr, ctx, e.location)
  const right = operand(e.rexpr, ctx, e.location)
  if (right.kind !== 'unknown' && !isArray(right.type))
    fail(
      `op ANY/ALL (array) requires array on right side, not ${readable(right.type)}`,
      e.location,
    )
  const element = right.kind === 'unknown' ? UNKNOWN : elementOf(right.type)
  const sig = resolveOperatorTypes(name, [left.type, element], e.location)
  if (sig.result !== 'bool')
    fail(
      'op ANY/ALL (array) requires an operator that yields boolean',
      e.location,
    )
  const l = coerce(left, sig.args[0] as PgType, ctx)
  const r = coerce(right, arrayOf(sig.args[1] as PgType), ctx)
  return { kind: 'quantified', type: 'bool', sig, args: [l, r], all }
}

// A constant pattern that Postgres would reject on the first row is refused now.
export function checkedPattern(like: Expr, location?: number): Expr {
  const pattern = like.kind === 'call' ? like.args[1] : undefined
  if (pattern && (pattern.kind === 'const' || pattern.kind === 'param')) {
    try {
      if (typeof pattern.value === 'string') likeMatcher(pattern.value, false)
    } catch (error) {
      fail((error as Error).message, location)
    }
  }
  return like
}

export function analyzeAExpr(e: A_Expr, ctx: Context): Node {
  switch (e.kind) {
    case 'AEXPR_OP': {
      const name = operatorName(e)
      if (!e.lexpr)
        return applyOperator(
          name,
          [operand(e.rexpr, ctx, e.location)],
          ctx,
          e.location,
        )
      const args = [
        operand(e.lexpr, ctx, e.location),
        operand(e.rexpr, ctx, e.location),
      ]
      return apply(resolveOperator(name, args, e.location), args, ctx)
    }
    case 'AEXPR_LIKE':
    case 'AEXPR_ILIKE': {
      if (e.rexpr && 'FuncCall' in e.rexpr)
        fail('LIKE ... ESCAPE is not supported', e.location)
      const args = [
        operand(e.lexpr, ctx, e.location),
        operand(e.rexpr, ctx, e.location),
      ]
      const like = applyOperator(operatorName(e), args, ctx, e.location)
      return checkedPattern(like, e.location)
    }
    case 'AEXPR_DISTINCT':
    case 'AEXPR_NOT_DISTINCT':
      return distinct(e, e.kind === 'AEXPR_NOT_DISTINCT', ctx)
    case 'AEXPR_IN':
      return inList(e, ctx)
    case 'AEXPR_BETWEEN':
    case 'AEXPR_NOT_BETWEEN':
    case 'AEXPR_BETWEEN_SYM':
    case 'AEXPR_NOT_BETWEEN_SYM':
      return between(e, ctx)
    case 'AEXPR_OP_ANY':
    case 'AEXPR_OP_ALL':
      return quantified(e, e.kind === 'AEXPR_OP_ALL', ctx)
    case 'AEXPR_NULLIF':
      return fail('NULLIF is not supported', e.location)
    default:
      return fail('SIMILAR TO is not supported', e.location)
  }
}
