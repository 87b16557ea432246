// Text ↔ value for every type: the input functions (column text as replication sends it, and
// literals/params of the clause) and the output functions (for ::text, || and concat()).
import { EvalError } from '../errors.ts'
import {
  elementOf,
  isArray,
  isEnum,
  isOpaque,
  readable,
  type PgType,
} from '../pg-types.ts'
import { formatArray, parseArray } from './array.ts'
import {
  formatDate,
  formatTime,
  formatTimestamp,
  parseDate,
  parseTime,
  parseTimestamp,
} from './datetime.ts'
import { formatFloat, parseFloat } from './float.ts'
import { parseInterval } from './interval-input.ts'
import { formatInterval, type Interval } from './interval.ts'
import { formatJsonb, isValidJson, parseJsonb, type Jsonb } from './jsonb.ts'
import { formatNumeric, parseNumeric, type Decimal } from './numeric.ts'
import { truncateName } from './text.ts'
import type { PgArray, Value } from './value.ts'

const INT_RANGE: Record<string, [bigint, bigint]> = {
  int2: [-32768n, 32767n],
  int4: [-2147483648n, 2147483647n],
  int8: [-(2n ** 63n), 2n ** 63n - 1n],
}

function parseInt(type: string, text: string): number | bigint | undefined {
  // Fast path for int2/int4 as replication prints them.
  if (type !== 'int8' && /^-?\d{1,9}$/.test(text)) {
    const n = Number(text)
    return type === 'int4' || (n >= -32768 && n <= 32767) ? n : undefined
  }
  const s = text.trim()
  if (!/^[+-]?\d+$/.test(s)) return undefined
  const n = BigInt(s)
  const [min, max] = INT_RANGE[type] as [bigint, bigint]
  if (n < min || n > max) return undefined
  return type === 'int8' ? n : Number(n)
}

// parse_bool: the words, their unique prefixes, on/off, 1/0; case-insensitive.
function parseBool(text: string): boolean | undefined {
  const s = text.trim().toLowerCase()
  if (s === '') return undefined
  if ('true'.startsWith(s) || 'yes'.startsWith(s) || s === 'on' || s === '1')
    return true
  if (
    'false'.startsWith(s) ||
    'no'.startsWith(s) ||
    s === 'off' ||
    s === 'of' ||
    s === '0'
  )
    return false
  return undefined
}

// string_to_uuid: 32 hex digits, optionally in braces, a hyphen allowed after each 4 digits.
function parseUuid(text: string): string | undefined {
  let s = text.trim()
  if (s.startsWith('{')) {
    if (!s.endsWith('}')) return undefined
    s = s.slice(1, -1)
  }
  if (!/^[0-9a-fA-F]{4}(?:-?[0-9a-fA-F]{4}){7}$/.test(s)) return undefined
  const hex = s.replace(/-/g, '').toLowerCase()
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

function parseScalar(type: PgType, text: string): Value | undefined {
  switch (type) {
    case 'bool':
      return parseBool(text)
    case 'int2':
    case 'int4':
    case 'int8':
      return parseInt(type, text)
    case 'float4':
    case 'float8':
      return parseFloat(type, text)
    case 'numeric':
      return parseNumeric(text)
    case 'text':
    case 'varchar':
    case 'bpchar':
    case 'cstring':
      return text
    case 'name':
      return truncateName(text)
    case 'uuid':
      return parseUuid(text)
    case 'date':
      return parseDate(text)
    case 'time':
      return parseTime(text)
    case 'timestamp':
    case 'timestamptz':
      return parseTimestamp(text, type === 'timestamptz')
    case 'interval':
      return parseInterval(text)
    case 'json':
      return isValidJson(text) ? text : undefined
    case 'jsonb':
      return parseJsonb(text)
  }
  // Enum labels and the text of types we don't know are kept as they are.
  if (isEnum(type) || isOpaque(type)) return text
  return undefined
}

/** The value of `text` as `type`, or undefined when Postgres would (or might) refuse it. */
export function tryParseValue(type: PgType, text: string): Value | undefined {
  if (isArray(type)) {
    const element = elementOf(type)
    return parseArray(text, (s) => parseScalar(element, s))
  }
  return parseScalar(type, text)
}

export function parseValue(type: PgType, text: string): Value {
  const value = tryParseValue(type, text)
  if (value === undefined)
    throw new EvalError(
      `invalid input syntax for type ${readable(type)}: "${text}"`,
    )
  return value
}

function formatScalar(type: PgType, v: Value): string {
  switch (type) {
    case 'bool':
      return v ? 't' : 'f'
    case 'int2':
    case 'int4':
    case 'int8':
      return String(v)
    case 'float4':
    case 'float8':
      return formatFloat(type, v as number)
    case 'numeric':
      return formatNumeric(v as Decimal)
    case 'date':
      return formatDate(v as number)
    case 'time':
      return formatTime(v as number)
    case 'timestamp':
    case 'timestamptz':
      return formatTimestamp(v as bigint, type === 'timestamptz')
    case 'interval':
      return formatInterval(v as Interval)
    case 'jsonb':
      return formatJsonb(v as Jsonb)
  }
  return v as string
}

/** The type's output function (what replication and concat() produce). */
export function formatValue(type: PgType, v: Value): string {
  if (isArray(type)) {
    const element = elementOf(type)
    return formatArray(v as PgArray, (x) => formatScalar(element, x))
  }
  return formatScalar(type, v)
}
