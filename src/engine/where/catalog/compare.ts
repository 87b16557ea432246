// Comparison per type: orderings for the types Postgres can sort (btree opclasses; arrays of
// them as array_cmp sorts), equality for the rest (jsonb, enums, and arrays, whose NULL
// elements count as equal, as in array_eq).
import { elementOf, isArray, isEnum, type PgType } from '../pg-types.ts'
import type { Compare } from '../tree.ts'
import { compareFloat } from '../values/float.ts'
import { compareInterval, type Interval } from '../values/interval.ts'
import { jsonbEqual, type Jsonb } from '../values/jsonb.ts'
import { compareNumeric, type Decimal } from '../values/numeric.ts'
import { compareText, trimBpchar } from '../values/text.ts'
import { dateToTimestamp } from '../values/datetime.ts'
import type { PgArray, Value } from '../values/value.ts'
import { charge } from '../budget.ts'

// number/bigint mix freely in JS relational operators, which covers int2/int4/int8.
const plain = (a: Value, b: Value): number => (a < b ? -1 : a > b ? 1 : 0)

const ORDERINGS: Record<string, Compare> = {
  bool: plain,
  int2: plain,
  int4: plain,
  int8: plain,
  float4: (a, b) => compareFloat(a as number, b as number),
  float8: (a, b) => compareFloat(a as number, b as number),
  numeric: (a, b) => compareNumeric(a as Decimal, b as Decimal),
  text: (a, b) => compareText(a as string, b as string),
  varchar: (a, b) => compareText(a as string, b as string),
  name: (a, b) => compareText(a as string, b as string),
  bpchar: (a, b) =>
    compareText(trimBpchar(a as string), trimBpchar(b as string)),
  uuid: plain, // canonical lower-case hex compares like the bytes
  date: plain,
  time: plain,
  timestamp: plain,
  timestamptz: plain,
  interval: (a, b) => compareInterval(a as Interval, b as Interval),
}

/**
 * array_cmp: element by element (a NULL after any value), then the number of elements, the
 * number of dimensions, the dimensions and the lower bounds.
 */
function arrayOrdering(element: PgType): Compare | undefined {
  const cmp = isEnum(element) ? undefined : ORDERINGS[element]
  if (!cmp) return undefined
  return (x, y) => {
    const a = x as PgArray
    const b = y as PgArray
    const n = Math.min(a.items.length, b.items.length)
    charge(PAIR_COST * n)
    for (let i = 0; i < n; i++) {
      const v = a.items[i] ?? null
      const w = b.items[i] ?? null
      if (v === null || w === null) {
        if (v !== w) return v === null ? 1 : -1
        continue
      }
      const c = cmp(v, w)
      if (c !== 0) return c
    }
    const lists: [number[], number[]][] = [
      [[a.items.length], [b.items.length]],
      [[a.dims.length], [b.dims.length]],
      [a.dims, b.dims],
      [a.lbounds, b.lbounds],
    ]
    for (const [p, q] of lists)
      for (let i = 0; i < p.length; i++)
        if (p[i] !== q[i]) return (p[i] as number) < (q[i] as number) ? -1 : 1
    return 0
  }
}

// Budget units per pair of elements compared.
const PAIR_COST = 8

/** The btree ordering of a type, if it has one we support. */
export function orderingOf(t: PgType): Compare | undefined {
  return isArray(t) ? arrayOrdering(elementOf(t)) : ORDERINGS[t]
}

/** Compares values of two types for which Postgres has cross-type comparison operators. */
export function crossOrdering(
  left: PgType,
  right: PgType,
): Compare | undefined {
  if (left === right) return ORDERINGS[left]
  const ints = ['int2', 'int4', 'int8']
  if (ints.includes(left) && ints.includes(right)) return plain
  if (left.startsWith('float') && right.startsWith('float'))
    return ORDERINGS.float8
  if (
    (left === 'name' && right === 'text') ||
    (left === 'text' && right === 'name')
  )
    return ORDERINGS.text
  const stamps = ['date', 'timestamp', 'timestamptz']
  if (stamps.includes(left) && stamps.includes(right)) {
    const asStamp = (t: PgType, v: Value): bigint =>
      t === 'date' ? dateToTimestamp(v as number) : (v as bigint)
    return (a, b) => plain(asStamp(left, a), asStamp(right, b))
  }
  return undefined
}

function arrayEquality(
  element: PgType,
): ((a: Value, b: Value) => boolean) | undefined {
  const eq = equalityOf(element)
  if (!eq) return undefined
  return (x, y) => {
    const a = x as PgArray
    const b = y as PgArray
    if (a.dims.length !== b.dims.length || a.items.length !== b.items.length)
      return false
    if (a.dims.some((d, i) => d !== b.dims[i] || a.lbounds[i] !== b.lbounds[i]))
      return false
    return a.items.every((v, i) => {
      const w = b.items[i] ?? null
      return v === null || w === null ? v === w : eq(v, w)
    })
  }
}

/** Equality of two values of one type. */
export function equalityOf(
  t: PgType,
): ((a: Value, b: Value) => boolean) | undefined {
  if (isArray(t)) return arrayEquality(elementOf(t))
  if (t === 'jsonb') return (a, b) => jsonbEqual(a as Jsonb, b as Jsonb)
  if (isEnum(t)) return (a, b) => a === b
  const order = ORDERINGS[t]
  return order && ((a, b) => order(a, b) === 0)
}
