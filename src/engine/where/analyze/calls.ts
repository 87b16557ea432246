// Function-call syntax: the supported functions, COALESCE, GREATEST/LEAST and ARRAY[...];
// aggregates, window functions, volatile and unknown functions are refused here.
import type {
  A_ArrayExpr,
  CoalesceExpr,
  FuncCall,
  MinMaxExpr,
} from 'libpg-query'
import { orderingOf } from '../catalog/compare.ts'
import {
  AGGREGATES,
  concatVariadic,
  functionCandidates,
  VOLATILE,
} from '../catalog/functions.ts'
import {
  arrayOf,
  isArray,
  isCastTarget,
  isEnum,
  readable,
  type PgType,
} from '../pg-types.ts'
import { commonType, selectCandidate } from '../resolve.ts'
import type { Expr, Node } from '../tree.ts'
import { apply, castTo, coerce, fail, type Context } from './context.ts'
import { checkedPattern } from './operators.ts'
import { zoneNamed } from '../values/timezone.ts'

export function analyzeFuncCall(call: FuncCall, ctx: Context): Expr {
  const location = call.location
  const parts = (call.funcname ?? []).map((n) =>
    'String' in n ? (n.String.sval ?? '') : '',
  )
  const name =
    parts.length === 2 && parts[0] === 'pg_catalog'
      ? (parts[1] as string)
      : parts.join('.')
  if (call.over) fail(`window functions are not supported: ${name}()`, location)
  const aggregate =
    call.agg_star ||
    call.agg_distinct ||
    call.agg_order?.length ||
    call.agg_filter
  if (aggregate || call.agg_within_group || AGGREGATES.has(name))
    fail(`aggregate functions are not supported: ${name}()`, location)
  if (VOLATILE.has(name))
    fail(`non-deterministic functions are not supported: ${name}()`, location)
  const args = (call.args ?? []).map((a) => ctx.analyze(a, ctx))
  if (call.func_variadic) return variadicCall(name, args, location)
  const types = args.map((a) => a.type)
  const candidates = functionCandidates(name, types)
  // `int4('12')`, `text(x)`: a type's name called on one argument is a cast (func_get_detail;
  // where pg_proc also has a function of that name for the argument's type, it is the cast's).
  if (!candidates && args.length === 1 && isCastTarget(name))
    return castTo(args[0] as Node, name, ctx, location)
  if (!candidates)
    fail(`unknown or unsupported function ${name}/${args.length}`, location)
  const result = selectCandidate(types, candidates, false)
  if ('error' in result) {
    const shown = `${name}(${types.map(readable).join(', ')})`
    fail(
      result.error === 'none'
        ? `function ${shown} does not exist`
        : `function ${shown} is not unique`,
      location,
    )
  }
  const applied = apply(result.ok, args, ctx)
  if (name === 'like' || name === 'notlike')
    return checkedPattern(applied, location)
  if (name === 'timezone') checkedZone(applied, location)
  return applied
}

// A constant zone name Postgres would reject on the first row is refused now.
function checkedZone(call: Expr, location?: number): void {
  const zone = call.kind === 'call' ? call.args[0] : undefined
  if (!zone || (zone.kind !== 'const' && zone.kind !== 'param')) return
  if (typeof zone.value !== 'string') return
  try {
    zoneNamed(zone.value)
  } catch (error) {
    fail((error as Error).message, location)
  }
}

// `concat(VARIADIC array)`, the one variadic function we have; concat takes nothing else then.
function variadicCall(name: string, args: Node[], location?: number): Expr {
  if (name !== 'concat')
    fail(`VARIADIC is not supported with ${name}()`, location)
  const [arg] = args
  if (args.length !== 1 || !arg)
    fail(
      `function concat(${args.map((a) => readable(a.type)).join(', ')}) does not exist`,
      location,
    )
  if (arg.kind === 'unknown' || !isArray(arg.type))
    fail('VARIADIC argument must be an array', location)
  const sig = concatVariadic(arg.type)
  return { kind: 'call', type: 'text', sig, args: [arg] }
}

function common(args: Node[], what: string, location?: number): PgType {
  const types = args.map((a) => a.type)
  const type = commonType(types)
  if (type === undefined)
    fail(
      `${what} types ${[...new Set(types)].map(readable).join(', ')} cannot be matched`,
      location,
    )
  return type
}

export function analyzeCoalesce(e: CoalesceExpr, ctx: Context): Expr {
  const args = (e.args ?? []).map((a) => ctx.analyze(a, ctx))
  const type = common(args, 'COALESCE', e.location)
  return { kind: 'coalesce', type, args: args.map((a) => coerce(a, type, ctx)) }
}

export function analyzeMinMax(e: MinMaxExpr, ctx: Context): Expr {
  const greatest = e.op === 'IS_GREATEST'
  const what = greatest ? 'GREATEST' : 'LEAST'
  const args = (e.args ?? []).map((a) => ctx.analyze(a, ctx))
  if (args.some((a) => isEnum(a.type)))
    fail(
      'enum values can only be compared with = and <> (as their labels)',
      e.location,
    )
  const type = common(args, what, e.location)
  const compare = orderingOf(type)
  if (!compare)
    fail(
      `could not identify a comparison function for type ${readable(type)}`,
      e.location,
    )
  return {
    kind: 'min-max',
    type,
    args: args.map((a) => coerce(a, type, ctx)),
    greatest,
    compare,
  }
}

export function analyzeArray(e: A_ArrayExpr, ctx: Context): Expr {
  const elements = e.elements ?? []
  if (elements.length === 0)
    fail('cannot determine type of empty array', e.location)
  if (elements.some((el) => 'A_ArrayExpr' in el))
    fail('multidimensional ARRAY[] is not supported', e.location)
  const args = elements.map((el) => ctx.analyze(el, ctx))
  const type = common(args, 'ARRAY', e.location)
  if (isArray(type))
    fail('multidimensional ARRAY[] is not supported', e.location)
  return {
    kind: 'array',
    type: arrayOf(type),
    elements: args.map((a) => coerce(a, type, ctx)),
  }
}
