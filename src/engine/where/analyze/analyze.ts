// Turns the parser's AST into the typed tree, refusing everything outside the supported
// subset: literals, columns, params, AND/OR/NOT, IS tests and casts here; operators and calls
// in their own modules.
import type {
  A_Const,
  ColumnRef,
  Node as PgNode,
  ParamRef,
  TypeName,
} from 'libpg-query'
import {
  arrayOf,
  isKnownScalar,
  readable,
  UNKNOWN,
  columnType,
  type PgType,
} from '../pg-types.ts'
import type { Expr, Node } from '../tree.ts'
import type { ColumnInfo } from '../types.ts'
import { parseNumeric } from '../values/numeric.ts'
import { analyzeAExpr } from './operators.ts'
import {
  analyzeArray,
  analyzeCoalesce,
  analyzeFuncCall,
  analyzeMinMax,
} from './calls.ts'
import { castTo, coerce, fail, type Context } from './context.ts'
import { analyzeSublink } from './sublink.ts'
import { analyzeIndirection } from './subscripts.ts'

const INT4_MAX = 2147483647n
const INT8 = 2n ** 63n

function analyzeConst(c: A_Const): Node {
  const location = c.location ?? 0
  if (c.isnull) return { kind: 'unknown', type: UNKNOWN, text: null, location }
  if (c.sval)
    return { kind: 'unknown', type: UNKNOWN, text: c.sval.sval ?? '', location }
  if (c.boolval) {
    const value = c.boolval.boolval ?? false
    return { kind: 'const', type: 'bool', value, literal: String(value) }
  }
  if (c.ival) {
    const value = c.ival.ival ?? 0 // the protobuf JSON leaves zero out
    return { kind: 'const', type: 'int4', value, literal: String(value) }
  }
  if (c.fval) {
    // make_const: an integer too big for int4 is int8 if it fits, else numeric.
    const text = c.fval.fval ?? '0'
    if (/^-?\d+$/.test(text)) {
      const n = BigInt(text)
      if (n >= -INT8 && n < INT8)
        return n >= -INT4_MAX - 1n && n <= INT4_MAX
          ? { kind: 'const', type: 'int4', value: Number(n), literal: text }
          : { kind: 'const', type: 'int8', value: n, literal: text }
    }
    const value = parseNumeric(text)
    if (!value) fail(`invalid numeric literal ${text}`, location)
    return { kind: 'const', type: 'numeric', value, literal: text }
  }
  fail('bit strings are not supported', location)
}

function analyzeColumn(ref: ColumnRef, ctx: Context): Expr {
  const names = (ref.fields ?? []).map((f) =>
    'String' in f ? f.String.sval : undefined,
  )
  if (names.some((n) => n === undefined))
    fail('* is not supported', ref.location)
  if (names.length !== 1)
    fail(
      `qualified column names are not supported: ${names.join('.')}`,
      ref.location,
    )
  const name = names[0] as string
  const column = ctx.columns.get(name)
  if (!column) fail(`column "${name}" does not exist`, ref.location)
  ctx.columnsUsed.add(name)
  return { kind: 'column', type: columnType(column), name }
}

function analyzeParam(ref: ParamRef, ctx: Context): Node {
  const n = ref.number ?? 0
  const location = ref.location ?? 0
  const text = ctx.params[n - 1]
  if (text === undefined) fail(`parameter $${n} was not provided`, location)
  ctx.paramsUsed.add(n)
  const type = ctx.paramTypes.get(n)
  const node: Node = {
    kind: 'unknown',
    type: UNKNOWN,
    text,
    param: n,
    location,
  }
  return type === undefined ? node : coerce(node, type, ctx)
}

/** A type named in a cast: one of ours, optionally pg_catalog-qualified, without modifiers. */
function typeOf(name: TypeName): PgType {
  const parts = (name.names ?? []).map((n) =>
    'String' in n ? (n.String.sval ?? '') : '',
  )
  const base =
    parts.length === 2 && parts[0] === 'pg_catalog' ? parts[1] : parts.join('.')
  if (base === undefined || !isKnownScalar(base))
    fail(`type "${parts.join('.')}" is not supported`, name.location)
  if (name.typmods?.length)
    fail('type modifiers are not supported', name.location)
  if (name.setof || name.pct_type)
    fail('this type syntax is not supported', name.location)
  return name.arrayBounds?.length ? arrayOf(base) : base
}

/** The argument of AND/OR/NOT/IS TRUE/WHERE, which must be boolean. */
export function toBool(
  node: Node,
  what: string,
  ctx: Context,
  location?: number,
): Expr {
  if (node.kind === 'unknown') return coerce(node, 'bool', ctx)
  if (node.type !== 'bool')
    fail(
      `argument of ${what} must be type boolean, not type ${readable(node.type)}`,
      location,
    )
  return node
}

const UNSUPPORTED: Record<string, string> = {
  SQLValueFunction:
    'non-deterministic functions (CURRENT_DATE, CURRENT_USER...) are not supported',
  CaseExpr: 'CASE is not supported',
  RowExpr: 'row expressions are not supported',
  CollateClause: 'COLLATE is not supported',
  A_Star: '* is not supported',
  GroupingFunc: 'GROUPING is not supported',
  XmlExpr: 'XML expressions are not supported',
}

/** A fresh analysis of one clause over `columns`, with `params` as $1..$n. */
export function createContext(
  columns: Map<string, ColumnInfo>,
  params: readonly string[],
  subqueries?: Pick<Context, 'subqueries' | 'subqueriesRefused'>,
): Context {
  return {
    ...subqueries,
    columns,
    params,
    paramTypes: new Map(),
    paramsUsed: new Set(),
    columnsUsed: new Set(),
    deferred: [],
    analyze,
    toBool,
  }
}

export function analyze(node: PgNode, ctx: Context): Node {
  if ('A_Const' in node) return analyzeConst(node.A_Const)
  if ('ColumnRef' in node) return analyzeColumn(node.ColumnRef, ctx)
  if ('ParamRef' in node) return analyzeParam(node.ParamRef, ctx)
  if ('A_Expr' in node) return analyzeAExpr(node.A_Expr, ctx)
  if ('FuncCall' in node) return analyzeFuncCall(node.FuncCall, ctx)
  if ('CoalesceExpr' in node) return analyzeCoalesce(node.CoalesceExpr, ctx)
  if ('MinMaxExpr' in node) return analyzeMinMax(node.MinMaxExpr, ctx)
  if ('A_ArrayExpr' in node) return analyzeArray(node.A_ArrayExpr, ctx)
  if ('SubLink' in node) return analyzeSublink(node.SubLink, ctx)
  if ('A_Indirection' in node)
    return analyzeIndirection(node.A_Indirection, ctx)
  if ('TypeCast' in node) {
    const { arg, typeName, location } = node.TypeCast
    if (!arg || !typeName) fail('malformed cast', location)
    const target = typeOf(typeName)
    return castTo(analyze(arg, ctx), target, ctx, location)
  }
  if ('BoolExpr' in node) {
    const { boolop, args = [], location } = node.BoolExpr
    const what =
      boolop === 'AND_EXPR' ? 'AND' : boolop === 'OR_EXPR' ? 'OR' : 'NOT'
    const operands = args.map((a) =>
      toBool(analyze(a, ctx), what, ctx, location),
    )
    if (what === 'NOT')
      return { kind: 'not', type: 'bool', arg: operands[0] as Expr }
    return { kind: what === 'AND' ? 'and' : 'or', type: 'bool', args: operands }
  }
  if ('NullTest' in node) {
    const { arg, nulltesttype } = node.NullTest
    if (!arg) fail('malformed IS NULL')
    const operand = analyze(arg, ctx)
    const test: Extract<Expr, { kind: 'null-test' }> = {
      kind: 'null-test',
      type: 'bool',
      arg: operand.kind === 'unknown' ? coerce(operand, 'text', ctx) : operand,
      negated: nulltesttype === 'IS_NOT_NULL',
    }
    // IS NULL does not fix a param's type, as in Postgres: `$1 IS NULL OR id = $1` types $1
    // from `id`. Until the end of analysis it is text (a param is never NULL anyway).
    const param = operand.kind === 'unknown' ? operand.param : undefined
    if (param !== undefined && operand.kind === 'unknown') {
      ctx.paramTypes.delete(param)
      ctx.deferred.push(() => {
        test.arg = coerce(operand, ctx.paramTypes.get(param) ?? 'text', ctx)
      })
    }
    return test
  }
  if ('BooleanTest' in node) {
    const { arg, booltesttype = 'IS_TRUE', location } = node.BooleanTest
    if (!arg) fail('malformed IS test', location)
    const what = booltesttype.replace(/_/g, ' ')
    const operand = toBool(analyze(arg, ctx), what, ctx, location)
    return { kind: 'bool-test', type: 'bool', arg: operand, test: booltesttype }
  }
  const kind = Object.keys(node)[0] ?? 'expression'
  const location = (Object.values(node)[0] as { location?: number } | undefined)
    ?.location
  fail(UNSUPPORTED[kind] ?? `${kind} is not supported`, location)
}
