// Every operator candidate by name, for the argument types at hand: comparisons (including
// Postgres's cross-type integer, float and date/timestamp ones), then the arithmetic, date,
// text and array families. String orderings are written with COLLATE "C" so the snapshot sorts
// by code point, as the evaluator does, whatever the database's collation.
import {
  elementOf,
  FLOAT_TYPES,
  INTEGER_TYPES,
  isArray,
  isEnum,
  isOpaque,
  isStringType,
  STRING_TYPES,
  type PgType,
} from '../pg-types.ts'
import type { Compare, Signature } from '../tree.ts'
import type { Value } from '../values/value.ts'
import { arrayOperators } from './array-ops.ts'
import { crossOrdering, equalityOf, orderingOf } from './compare.ts'
import { datetimeOperators } from './datetime-ops.ts'
import { numericOperators } from './numeric-ops.ts'
import { binary, op } from './sig.ts'
import { textOperators } from './text-ops.ts'

const COMPARISONS = ['=', '<>', '<', '>', '<=', '>='] as const
const TESTS: Record<string, (c: number) => boolean> = {
  '=': (c) => c === 0,
  '<>': (c) => c !== 0,
  '<': (c) => c < 0,
  '>': (c) => c > 0,
  '<=': (c) => c <= 0,
  '>=': (c) => c >= 0,
}

// Pairs with a comparison operator in pg_operator (same type, or a cross-type family).
const PAIRS: [PgType, PgType][] = []
const SAME = [
  ...INTEGER_TYPES,
  ...FLOAT_TYPES,
  'numeric',
  ...STRING_TYPES,
  'bool',
  'uuid',
  'date',
  'time',
  'timestamp',
  'timestamptz',
  'interval',
]
for (const t of SAME) PAIRS.push([t, t])
for (const family of [
  INTEGER_TYPES,
  FLOAT_TYPES,
  ['date', 'timestamp', 'timestamptz'],
])
  for (const l of family)
    for (const r of family) if (l !== r) PAIRS.push([l, r])
PAIRS.push(['name', 'text'], ['text', 'name'])

function ordered(
  name: string,
  l: PgType,
  r: PgType,
  compare: Compare,
): Signature {
  const test = TESTS[name] as (c: number) => boolean
  const collateC = name !== '=' && name !== '<>' && isStringType(elementOf(l))
  return op(
    name,
    [l, r],
    'bool',
    binary((a: Value, b: Value) => test(compare(a, b))),
    {
      collateC,
    },
  )
}

function equality(name: string, t: PgType): Signature[] {
  const eq = equalityOf(t)
  if (!eq) return []
  const negated = name === '<>'
  return [
    op(
      name,
      [t, t],
      'bool',
      binary((a: Value, b: Value) => eq(a, b) !== negated),
    ),
  ]
}

function comparisons(name: string, argTypes: PgType[]): Signature[] {
  const out = PAIRS.map(([l, r]) =>
    ordered(name, l, r, crossOrdering(l, r) as Compare),
  )
  if (name !== '=' && name !== '<>') {
    // Arrays order as array_cmp does (not arrays of enums, which only compare for equality).
    for (const t of new Set(argTypes)) {
      const order = isArray(t) && !isOpaque(t) ? orderingOf(t) : undefined
      if (order) out.push(ordered(name, t, t, order))
    }
    return out
  }
  out.push(...equality(name, 'jsonb'))
  const [l, r] = argTypes
  // enum = enum only between two values of the same enum; with anything else enums are text.
  if (l !== undefined && l === r && isEnum(l) && !isArray(l))
    out.push(...equality(name, l))
  for (const t of new Set(argTypes)) {
    if (!isArray(t) || isOpaque(t)) continue
    out.push(...equality(name, isEnum(t) ? 'text[]' : t))
  }
  return out
}

/** Candidates for `name` applied to arguments of these types (UNKNOWN for untyped ones). */
export function operatorCandidates(
  name: string,
  argTypes: PgType[],
): Signature[] {
  const arity = argTypes.length
  const out: Signature[] = []
  if (arity === 2 && (COMPARISONS as readonly string[]).includes(name))
    out.push(...comparisons(name, argTypes))
  out.push(...numericOperators(name, arity))
  out.push(...datetimeOperators(name, arity))
  out.push(...textOperators(name, argTypes))
  out.push(...arrayOperators(name, argTypes))
  return out
}
