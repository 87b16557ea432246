// Array operators and functions: @> <@ && (elements compared with their type's equality,
// NULL elements never match), || and array_cat/append/prepend (one-dimensional, NULL-tolerant
// like Postgres), and array_ndims. Polymorphic signatures are instantiated for the array
// types at hand; arrays of enums are handled as text[].
import { charge } from '../budget.ts'
import { EvalError } from '../errors.ts'
import {
  arrayOf,
  elementOf,
  isArray,
  isEnum,
  isOpaque,
  UNKNOWN,
  type PgType,
} from '../pg-types.ts'
import { commonType } from '../resolve.ts'
import type { Signature } from '../tree.ts'
import type { Datum, PgArray, Value } from '../values/value.ts'
import { equalityOf } from './compare.ts'
import { binary, fn, op } from './sig.ts'

const one = (items: Datum[], lbound = 1): PgArray => ({
  dims: [items.length],
  lbounds: [lbound],
  items,
})
const isEmpty = (a: PgArray) => a.dims.length === 0

function flatOnly(a: PgArray): PgArray {
  if (a.dims.length > 1)
    throw new EvalError(
      'only empty or one-dimensional arrays can be extended here',
    )
  return a
}

function arrayCat(a: PgArray | null, b: PgArray | null): PgArray | null {
  if (a === null || (b !== null && isEmpty(b))) return a ?? b
  if (b === null || isEmpty(a)) return b ?? a
  charge(a.items.length + b.items.length)
  return one([...flatOnly(a).items, ...flatOnly(b).items], a.lbounds[0])
}

function arrayAppend(a: PgArray | null, e: Datum): PgArray {
  if (a === null || isEmpty(a)) return one([e])
  charge(a.items.length)
  return one([...flatOnly(a).items, e], a.lbounds[0])
}

function arrayPrepend(e: Datum, a: PgArray | null): PgArray {
  if (a === null || isEmpty(a)) return one([e])
  charge(a.items.length)
  return one([e, ...flatOnly(a).items], a.lbounds[0])
}

// Budget units per pair of elements compared (an equality call costs several nanoseconds).
const PAIR_COST = 8

/** Whether every element of `needles` equals some element of `hay` (array_contain_compare). */
function containsAll(
  hay: PgArray,
  needles: PgArray,
  eq: (a: Value, b: Value) => boolean,
) {
  // Quadratic, as array_contain_compare is: the budget bounds it.
  charge(PAIR_COST * hay.items.length * needles.items.length)
  return needles.items.every(
    (x) => x !== null && hay.items.some((y) => y !== null && eq(x, y)),
  )
}

function overlaps(a: PgArray, b: PgArray, eq: (a: Value, b: Value) => boolean) {
  charge(PAIR_COST * a.items.length * b.items.length)
  return a.items.some(
    (x) => x !== null && b.items.some((y) => y !== null && eq(x, y)),
  )
}

/** The array types to instantiate polymorphic signatures with. */
function arrayTypes(argTypes: PgType[]): PgType[] {
  const out = new Set<PgType>()
  for (const t of argTypes) {
    if (!isArray(t) || isOpaque(t)) continue
    out.add(isEnum(t) ? 'text[]' : t)
  }
  // anycompatible: an array and another array or element of a compatible type.
  const elements = argTypes
    .filter((t) => t !== UNKNOWN && !isOpaque(t))
    .map((t) => (isEnum(t) ? 'text' : elementOf(t)))
  const common =
    argTypes.some(isArray) && elements.length > 1
      ? commonType(elements)
      : undefined
  if (common && !isArray(common)) out.add(arrayOf(common))
  return [...out]
}

function nullable(f: (a: Datum, b: Datum) => Datum): (args: Datum[]) => Datum {
  return (args) => f(args[0] ?? null, args[1] ?? null)
}

// NULL for an empty array, which has no dimensions.
const ndims = (args: Datum[]): Datum => (args[0] as PgArray).dims.length || null

const cat = nullable((a, b) =>
  arrayCat(a as PgArray | null, b as PgArray | null),
)
const append = nullable((a, e) => arrayAppend(a as PgArray | null, e))
const prepend = nullable((e, a) => arrayPrepend(e, a as PgArray | null))

export function arrayOperators(name: string, argTypes: PgType[]): Signature[] {
  if (argTypes.length !== 2) return []
  const out: Signature[] = []
  for (const a of arrayTypes(argTypes)) {
    const e = elementOf(a)
    const eq = equalityOf(e)
    if (name === '||') {
      out.push(op('||', [a, a], a, cat, { strict: false }))
      out.push(op('||', [a, e], a, append, { strict: false }))
      out.push(op('||', [e, a], a, prepend, { strict: false }))
    }
    if (!eq) continue
    if (name === '@>')
      out.push(
        op(
          '@>',
          [a, a],
          'bool',
          binary((x: PgArray, y: PgArray) => containsAll(x, y, eq)),
        ),
      )
    if (name === '<@')
      out.push(
        op(
          '<@',
          [a, a],
          'bool',
          binary((x: PgArray, y: PgArray) => containsAll(y, x, eq)),
        ),
      )
    if (name === '&&')
      out.push(
        op(
          '&&',
          [a, a],
          'bool',
          binary((x: PgArray, y: PgArray) => overlaps(x, y, eq)),
        ),
      )
  }
  return out
}

export function arrayFunctions(name: string, argTypes: PgType[]): Signature[] {
  const out: Signature[] = []
  for (const a of arrayTypes(argTypes)) {
    const e = elementOf(a)
    if (name === 'array_cat')
      out.push(fn(name, [a, a], a, cat, { strict: false }))
    if (name === 'array_append')
      out.push(fn(name, [a, e], a, append, { strict: false }))
    if (name === 'array_prepend')
      out.push(fn(name, [e, a], a, prepend, { strict: false }))
    if (name === 'array_ndims') out.push(fn(name, [a], 'int4', ndims))
  }
  return out
}
