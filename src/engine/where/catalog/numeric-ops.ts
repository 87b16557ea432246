// Arithmetic operators on int2/int4/int8, float4/float8 and numeric, with the cross-type
// integer and float variants pg_operator has, and Postgres's overflow and division errors;
// and the float8 square root `|/`.
import { EvalError } from '../errors.ts'
import { FLOAT_TYPES, INTEGER_TYPES } from '../pg-types.ts'
import type { Signature } from '../tree.ts'
import {
  floatArithmetic,
  powerFloat,
  sqrtFloat,
  type FloatKind,
} from '../values/float.ts'
import {
  absNumeric,
  addNumeric,
  divideNumeric,
  moduloNumeric,
  multiplyNumeric,
  negateNumeric,
  subtractNumeric,
  type Decimal,
} from '../values/numeric.ts'
import { powerNumeric } from '../values/numeric-power.ts'
import { binary, op, unary } from './sig.ts'

type IntType = (typeof INTEGER_TYPES)[number]

const LIMITS: Record<IntType, { min: bigint; max: bigint; name: string }> = {
  int2: { min: -32768n, max: 32767n, name: 'smallint' },
  int4: { min: -2147483648n, max: 2147483647n, name: 'integer' },
  int8: { min: -(2n ** 63n), max: 2n ** 63n - 1n, name: 'bigint' },
}

/** Range-checks an integer result and gives it its runtime form (number, or bigint for int8). */
export function toInt(type: IntType, n: bigint | number): number | bigint {
  const { min, max, name } = LIMITS[type]
  const big = typeof n === 'bigint' ? n : BigInt(n)
  if (typeof n === 'number' && !Number.isInteger(n))
    throw new EvalError(`${name} out of range`)
  if (big < min || big > max) throw new EvalError(`${name} out of range`)
  return type === 'int8' ? big : Number(big)
}

const wider = (a: IntType, b: IntType): IntType =>
  a === 'int8' || b === 'int8'
    ? 'int8'
    : a === 'int4' || b === 'int4'
      ? 'int4'
      : 'int2'

function intArithmetic(
  o: string,
  result: IntType,
): (a: IntValue, b: IntValue) => number | bigint {
  return (a, b) => {
    const x = BigInt(a)
    const y = BigInt(b)
    if ((o === '/' || o === '%') && y === 0n)
      throw new EvalError('division by zero')
    const r =
      o === '+'
        ? x + y
        : o === '-'
          ? x - y
          : o === '*'
            ? x * y
            : o === '/'
              ? x / y
              : x % y
    return toInt(result, r)
  }
}
type IntValue = number | bigint

function intBitwise(
  o: string,
  type: IntType,
): (a: IntValue, b: IntValue) => number | bigint {
  if (type === 'int8') {
    return (a, b) => {
      const x = BigInt(a)
      const y = BigInt(b)
      // C shifts of int64 by the count modulo 64 on the hardware Postgres runs on.
      const count = BigInt(Number(b) & 63)
      const r =
        o === '&'
          ? x & y
          : o === '|'
            ? x | y
            : o === '#'
              ? x ^ y
              : o === '<<'
                ? x << count
                : x >> count
      return BigInt.asIntN(64, r)
    }
  }
  const narrow = (n: number) => (type === 'int2' ? (n << 16) >> 16 : n | 0)
  return (a, b) => {
    const x = Number(a)
    const y = Number(b)
    return narrow(
      o === '&'
        ? x & y
        : o === '|'
          ? x | y
          : o === '#'
            ? x ^ y
            : o === '<<'
              ? x << y
              : x >> y,
    )
  }
}

function integerOperators(name: string): Signature[] {
  const out: Signature[] = []
  for (const l of INTEGER_TYPES)
    for (const r of INTEGER_TYPES) {
      if (['+', '-', '*', '/'].includes(name))
        out.push(
          op(
            name,
            [l, r],
            wider(l, r),
            binary(intArithmetic(name, wider(l, r))),
          ),
        )
    }
  for (const t of INTEGER_TYPES) {
    if (name === '%')
      out.push(op('%', [t, t], t, binary(intArithmetic('%', t))))
    if (['&', '|', '#'].includes(name))
      out.push(op(name, [t, t], t, binary(intBitwise(name, t))))
    if (name === '<<' || name === '>>')
      out.push(op(name, [t, 'int4'], t, binary(intBitwise(name, t))))
  }
  return out
}

function floatOperators(name: string): Signature[] {
  if (!['+', '-', '*', '/'].includes(name)) return []
  const o = name as '+' | '-' | '*' | '/'
  const out: Signature[] = []
  for (const l of FLOAT_TYPES)
    for (const r of FLOAT_TYPES) {
      const result: FloatKind =
        l === 'float4' && r === 'float4' ? 'float4' : 'float8'
      out.push(op(name, [l, r], result, binary(floatArithmetic(result, o))))
    }
  return out
}

const NUMERIC_BODIES: Record<string, (a: Decimal, b: Decimal) => Decimal> = {
  '+': addNumeric,
  '-': subtractNumeric,
  '*': multiplyNumeric,
  '/': divideNumeric,
  '%': moduloNumeric,
  '^': powerNumeric,
}

// Prefix operators per type family, in the order pg_operator lists them.
const INTEGER_UNARY: Record<string, (t: IntType) => (a: IntValue) => IntValue> =
  {
    '-': (t) => (a) => toInt(t, -BigInt(a)),
    '+': () => (a) => a,
    '@': (t) => (a) => toInt(t, a < 0 ? -BigInt(a) : BigInt(a)),
    '~': (t) => (a) => toInt(t, ~BigInt(a)),
  }
const FLOAT_UNARY: Record<string, (a: number) => number> = {
  '-': (a) => -a,
  '+': (a) => a,
  '@': (a) => Math.abs(a),
}
const NUMERIC_UNARY: Record<string, (a: Decimal) => Decimal> = {
  '-': negateNumeric,
  '+': (a) => a,
  '@': absNumeric,
}

function unaryOperators(name: string): Signature[] {
  const out: Signature[] = []
  const integer = INTEGER_UNARY[name]
  if (integer)
    for (const t of INTEGER_TYPES) out.push(op(name, [t], t, unary(integer(t))))
  const float = FLOAT_UNARY[name]
  if (float)
    for (const t of FLOAT_TYPES) out.push(op(name, [t], t, unary(float)))
  const numeric = NUMERIC_UNARY[name]
  if (numeric) out.push(op(name, ['numeric'], 'numeric', unary(numeric)))
  if (name === '|/') out.push(op('|/', ['float8'], 'float8', unary(sqrtFloat)))
  return out
}

/** The arithmetic candidates for an operator name and arity. */
export function numericOperators(name: string, arity: number): Signature[] {
  if (arity === 1) return unaryOperators(name)
  const out = [...integerOperators(name), ...floatOperators(name)]
  const body = NUMERIC_BODIES[name]
  if (body) out.push(op(name, ['numeric', 'numeric'], 'numeric', binary(body)))
  if (name === '^')
    out.push(op('^', ['float8', 'float8'], 'float8', binary(powerFloat)))
  return out
}
