// Casts between the supported types, explicit and implicit alike (which ones may be implicit
// is pg-types' business): I/O conversions to and from text, numeric conversions with
// Postgres's rounding and range errors, date/time conversions, and element-wise array casts.
import { EvalError } from '../errors.ts'
import {
  elementOf,
  isArray,
  isEnum,
  isInteger,
  isOpaque,
  isStringType,
  type PgType,
} from '../pg-types.ts'
import {
  dateToTimestamp,
  timestampToDate,
  timestampToTime,
} from '../values/datetime.ts'
import { roundHalfEven } from '../values/float.ts'
import { intervalToTime, type Interval } from '../values/interval.ts'
import { formatValue, parseValue } from '../values/io.ts'
import { formatJsonb, parseJsonb, type Jsonb } from '../values/jsonb.ts'
import {
  decimalFromInt,
  floatToNumeric,
  numericToFloat,
  roundNumericToInt,
  type Decimal,
} from '../values/numeric.ts'
import { trimBpchar, truncateName } from '../values/text.ts'
import type { Datum, PgArray, Value } from '../values/value.ts'
import { toInt } from './numeric-ops.ts'

export type Cast = (v: Value) => Datum

/** `value::text`: the output function, except bool (`true`) and bpchar (trailing spaces go). */
export function textOf(from: PgType): (v: Value) => string {
  if (from === 'bool') return (v) => (v ? 'true' : 'false')
  if (from === 'bpchar') return (v) => trimBpchar(v as string)
  if (
    isStringType(from) ||
    isEnum(from) ||
    isOpaque(from) ||
    from === 'cstring'
  )
    return (v) => v as string
  return (v) => formatValue(from, v)
}

function toFloat(to: 'float4' | 'float8', x: number): number {
  if (to === 'float8') return x
  const r = Math.fround(x)
  if (!Number.isFinite(r) && Number.isFinite(x))
    throw new EvalError('value out of range: overflow')
  if (r === 0 && x !== 0) throw new EvalError('value out of range: underflow')
  return r
}

function numericCast(from: PgType, to: PgType): Cast | undefined {
  const toIntType = to as 'int2' | 'int4' | 'int8'
  if (isInteger(from)) {
    if (isInteger(to)) return (v) => toInt(toIntType, v as number | bigint)
    if (to === 'float4' || to === 'float8') return (v) => toFloat(to, Number(v))
    if (to === 'numeric') return (v) => decimalFromInt(v as number | bigint)
  }
  if (from === 'float4' || from === 'float8') {
    if (isInteger(to))
      return (v) => {
        const x = v as number
        if (!Number.isFinite(x)) throw new EvalError(`${to} out of range`)
        return toInt(toIntType, BigInt(roundHalfEven(x)))
      }
    if (to === 'float4' || to === 'float8')
      return (v) => toFloat(to, v as number)
    if (to === 'numeric')
      return (v) => floatToNumeric(v as number, from === 'float4' ? 6 : 15)
  }
  if (from === 'numeric') {
    if (isInteger(to))
      return (v) => toInt(toIntType, roundNumericToInt(v as Decimal))
    if (to === 'float4' || to === 'float8')
      return (v) => {
        const x = numericToFloat(v as Decimal)
        const special = (v as Decimal).special !== undefined
        if (!Number.isFinite(x) && !special)
          throw new EvalError('value out of range for type double precision')
        return toFloat(to, x)
      }
  }
  return undefined
}

const DATETIME_CASTS: Record<string, Cast> = {
  'date>timestamp': (v) => dateToTimestamp(v as number),
  'date>timestamptz': (v) => dateToTimestamp(v as number),
  'timestamp>date': (v) => timestampToDate(v as bigint),
  'timestamptz>date': (v) => timestampToDate(v as bigint),
  'timestamp>timestamptz': (v) => v,
  'timestamptz>timestamp': (v) => v,
  'timestamp>time': (v) => timestampToTime(v as bigint),
  'timestamptz>time': (v) => timestampToTime(v as bigint),
  'time>interval': (v) => ({ months: 0, days: 0, usecs: BigInt(v as number) }),
  'interval>time': (v) => intervalToTime(v as Interval),
  'bool>int4': (v) => (v ? 1 : 0),
  'int4>bool': (v) => v !== 0,
  'json>jsonb': (v) => {
    const j = parseJsonb(v as string)
    if (!j) throw new EvalError('invalid input syntax for type json')
    return j
  },
  'jsonb>json': (v) => formatJsonb(v as Jsonb),
}

function scalarCast(from: PgType, to: PgType): Cast | undefined {
  if (from === to) return (v) => v
  // cstring converts to and from the string types only, its text kept as it is.
  if (to === 'cstring')
    return isStringType(from) ? (v) => v as string : undefined
  if (from === 'cstring' && !isStringType(to)) return undefined
  if (isStringType(to)) {
    // Anything prints as text; bpchar, varchar and name without a length keep the value.
    const text = textOf(from)
    return to === 'name' ? (v) => truncateName(text(v)) : text
  }
  if (isStringType(from)) {
    if (isEnum(to) || isOpaque(to)) return undefined
    return (v) => parseValue(to, v as string)
  }
  return numericCast(from, to) ?? DATETIME_CASTS[`${from}>${to}`]
}

/** The cast from one type to another, or undefined when we (or Postgres) have none. */
export function castBetween(from: PgType, to: PgType): Cast | undefined {
  if (isArray(from) && isArray(to)) {
    const element = scalarCast(elementOf(from), elementOf(to))
    if (!element) return undefined
    return (v) => {
      const a = v as PgArray
      return {
        ...a,
        items: a.items.map((x) => (x === null ? null : element(x))),
      }
    }
  }
  if (isArray(from))
    return isStringType(to) ? (v) => formatValue(from, v) : undefined
  if (isArray(to))
    return isStringType(from) ? (v) => parseValue(to, v as string) : undefined
  return scalarCast(from, to)
}
