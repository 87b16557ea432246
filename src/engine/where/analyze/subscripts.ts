// Array subscripts, `a[i][j]` and slices `a[l:u]` (A_Indirection), typed as Postgres types them
// (transformContainerSubscripts): any slice makes every subscript a slice, `a[i]` then reading
// as `a[1:i]`; each bound becomes int4 by an assignment cast.
import type { A_Indirection, Node as PgNode } from 'libpg-query'
import { MAX_ARRAY_DIMS } from '../limits.ts'
import { elementOf, isArray, readable, UNKNOWN } from '../pg-types.ts'
import type { Expr } from '../tree.ts'
import { castTo, coerce, fail, type Context } from './context.ts'

// Types with an assignment cast to int4.
const TO_INT4 = new Set(['int2', 'int4', 'int8', 'numeric', 'float4', 'float8'])

function bound(node: PgNode, ctx: Context, location?: number): Expr {
  const e = ctx.analyze(node, ctx)
  if (e.kind === 'unknown') return coerce(e, 'int4', ctx)
  if (!TO_INT4.has(e.type))
    fail(
      `array subscript must have type integer, not ${readable(e.type)}`,
      location,
    )
  return castTo(e, 'int4', ctx, location)
}

const ONE: Expr = { kind: 'const', type: 'int4', value: 1, literal: '1' }

export function analyzeIndirection(e: A_Indirection, ctx: Context): Expr {
  if (!e.arg) fail('malformed subscript')
  const arg = ctx.analyze(e.arg, ctx)
  const location = 'location' in arg ? arg.location : undefined
  if (arg.kind === 'unknown' || !isArray(arg.type))
    fail(
      `cannot subscript type ${readable(arg.kind === 'unknown' ? UNKNOWN : arg.type)} because it does not support subscripting`,
      location,
    )
  const parts = e.indirection ?? []
  const subscripts = parts.map((p) => {
    if (!('A_Indices' in p))
      fail('field selection and * are not supported', location)
    return p.A_Indices
  })
  if (subscripts.length > MAX_ARRAY_DIMS)
    fail(
      `number of array dimensions (${subscripts.length}) exceeds the maximum allowed (${MAX_ARRAY_DIMS})`,
      location,
    )
  const slice = subscripts.some((s) => s.is_slice)
  const indices = subscripts.map((s) => {
    const upper = s.uidx ? bound(s.uidx, ctx, location) : undefined
    if (!slice) return { upper }
    const lower = s.lidx
      ? bound(s.lidx, ctx, location)
      : s.is_slice
        ? undefined
        : ONE
    return { lower, upper }
  })
  return {
    kind: 'subscript',
    type: slice ? arg.type : elementOf(arg.type),
    arg,
    indices,
    slice,
  }
}
