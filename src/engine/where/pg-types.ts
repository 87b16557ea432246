// The type system of where clauses: types named by pg_type.typname (`int4`, `text[]`), enums as
// `enum:<typname>`, other column types as `opaque:<typname>`; with the categories, preferred
// types and implicit casts of pg_type/pg_cast, which overload resolution needs.
import type { ColumnInfo } from './types.ts'

export type PgType = string

/** The type of an untyped literal, NULL or parameter until context gives it one. */
export const UNKNOWN = 'unknown'

const SCALARS: Record<string, { category: string; preferred?: true }> = {
  bool: { category: 'B', preferred: true },
  int2: { category: 'N' },
  int4: { category: 'N' },
  int8: { category: 'N' },
  float4: { category: 'N' },
  float8: { category: 'N', preferred: true },
  numeric: { category: 'N' },
  text: { category: 'S', preferred: true },
  varchar: { category: 'S' },
  bpchar: { category: 'S' },
  name: { category: 'S' },
  uuid: { category: 'U' },
  json: { category: 'U' },
  jsonb: { category: 'U' },
  date: { category: 'D' },
  time: { category: 'D' },
  timestamp: { category: 'D' },
  timestamptz: { category: 'D', preferred: true },
  interval: { category: 'T', preferred: true },
  // What the output functions (int4out()) return: it only converts to the string types.
  cstring: { category: 'P' },
}

// pg_cast entries with castcontext 'i' between the types above. enum → text is ours: enums
// are compared as their labels, and the cast is always written out in the snapshot SQL.
const IMPLICIT: Record<string, string[]> = {
  int2: ['int4', 'int8', 'float4', 'float8', 'numeric'],
  int4: ['int8', 'float4', 'float8', 'numeric'],
  int8: ['float4', 'float8', 'numeric'],
  float4: ['float8'],
  numeric: ['float4', 'float8'],
  text: ['bpchar', 'varchar', 'name'],
  varchar: ['text', 'bpchar', 'name'],
  bpchar: ['text', 'varchar', 'name'],
  name: ['text'],
  date: ['timestamp', 'timestamptz'],
  timestamp: ['timestamptz'],
  time: ['interval'],
}

export const isArray = (t: PgType): boolean => t.endsWith('[]')
export const elementOf = (t: PgType): PgType =>
  isArray(t) ? t.slice(0, -2) : t
export const arrayOf = (t: PgType): PgType => `${t}[]`
export const isEnum = (t: PgType): boolean => elementOf(t).startsWith('enum:')
export const isOpaque = (t: PgType): boolean =>
  elementOf(t).startsWith('opaque:')
export const isKnownScalar = (t: string): boolean => Object.hasOwn(SCALARS, t)
/** A type whose name, called as a function on one argument, casts to it. */
export const isCastTarget = (t: string): boolean =>
  isKnownScalar(t) && t !== 'cstring'

export const INTEGER_TYPES = ['int2', 'int4', 'int8'] as const
export const FLOAT_TYPES = ['float4', 'float8'] as const
export const STRING_TYPES = ['text', 'varchar', 'bpchar', 'name'] as const
export const isInteger = (t: PgType): boolean =>
  (INTEGER_TYPES as readonly string[]).includes(t)
export const isStringType = (t: PgType): boolean =>
  (STRING_TYPES as readonly string[]).includes(t)

export function category(t: PgType): string {
  if (t === UNKNOWN) return 'X'
  if (isArray(t)) return 'A'
  if (isEnum(t)) return 'E'
  return SCALARS[t]?.category ?? 'U'
}

export function isPreferred(t: PgType): boolean {
  return SCALARS[t]?.preferred === true
}

export function canCoerceImplicitly(from: PgType, to: PgType): boolean {
  if (from === to || from === UNKNOWN) return true
  if (isArray(from) && isArray(to))
    return canCoerceImplicitly(elementOf(from), elementOf(to))
  if (isArray(from) || isArray(to)) return false
  if (isEnum(from)) return to === 'text'
  return IMPLICIT[from]?.includes(to) ?? false
}

/** How messages name a type. */
export function readable(t: PgType): string {
  if (isArray(t)) return `${readable(elementOf(t))}[]`
  return t.replace(/^(enum|opaque):/, '')
}

/** The where-clause type of a table column. */
export function columnType(column: ColumnInfo): PgType {
  const base = isKnownScalar(column.type)
    ? column.type
    : column.enum
      ? `enum:${column.type}`
      : `opaque:${column.type}`
  return column.dims > 0 ? arrayOf(base) : base
}
