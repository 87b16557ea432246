// The subset of a snapshot request (`subset__where`, `subset__params`, `subset__limit`,
// `subset__offset`, `subset__order_by` in the query, or the same keys in a POST's JSON body),
// read and checked as Electric does before any SQL is built from it. Where and order_by are
// compiled against the table later (shapes/subset.ts), with the where compiler's own limits.

import type { Subset } from '../shapes/subset.ts'
import { NUL_REFUSED } from './protocol-errors.ts'

export type SubsetRequest = Subset

/** One answer holds at most this many rows when a limit is given (no limit: every row). */
export const MAX_SUBSET_LIMIT = 100_000
/** Rows skipped; a Postgres int4, far beyond any useful page. */
const MAX_SUBSET_OFFSET = 2_147_483_647

export const SUBSET_KEYS = [
  'where',
  'params',
  'limit',
  'offset',
  'order_by',
] as const
type Key = (typeof SUBSET_KEYS)[number]
const PREFIX = 'subset__'
export const isSubsetKey = (name: string): name is Key =>
  (SUBSET_KEYS as readonly string[]).includes(name)

export type SubsetErrors = Partial<Record<Key, string[]>>

/** `params[1]=a&params[2]=b`, `{"1":"a","2":"b"}` or `["a","b"]`: keys must be 1..n. */
export function paramList(
  found: Map<number, unknown>,
): { values: string[] } | { error: string } {
  const values: string[] = []
  for (let i = 1; i <= found.size; i++) {
    if (!found.has(i))
      return { error: 'keys must be consecutive integers starting at 1' }
    const value = found.get(i)
    if (value === null || typeof value === 'object')
      return { error: 'values must be strings, numbers or booleans' }
    // A value from JSON (`params=["\u0000"]`) holds a NUL no query string showed.
    if (typeof value === 'string' && value.includes('\0'))
      return { error: NUL_REFUSED }
    values.push(String(value))
  }
  return { values }
}

/** A params value from JSON: an object keyed 1..n, or an array. */
export function paramsFromJson(value: unknown): Map<number, unknown> | null {
  if (Array.isArray(value)) return new Map(value.map((v, i) => [i + 1, v]))
  if (value === null || typeof value !== 'object') return null
  const found = new Map<number, unknown>()
  for (const [key, v] of Object.entries(value)) {
    if (!/^[1-9]\d{0,5}$/.test(key)) return null
    found.set(Number(key), v)
  }
  return found
}

function integer(value: unknown): number | null {
  if (typeof value === 'number')
    return Number.isSafeInteger(value) ? value : null
  if (typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim()))
    return Number(value.trim())
  return null
}

/** The raw subset fields: the query's `subset__*`, then the body's keys over them. */
function rawFields(
  query: URLSearchParams,
  body: Record<string, unknown> | null,
): Map<Key, unknown> {
  const raw = new Map<Key, unknown>()
  const bracketed = new Map<number, unknown>()
  // One pass, and nothing built unless a name says subset: every live request passes here.
  query.forEach((value, name) => {
    if (!name.startsWith(PREFIX)) return
    const key = name.slice(PREFIX.length)
    if (isSubsetKey(key)) {
      if (!raw.has(key)) raw.set(key, value)
      return
    }
    const m = /^params\[(\d{1,6})\]$/.exec(key)
    if (m) bracketed.set(Number(m[1]), value)
  })
  if (bracketed.size > 0 && !raw.has('params'))
    raw.set('params', Object.fromEntries(bracketed))
  // The subset's fields of a POST body (merge-body.ts picks them; a `subset` object inside is
  // still read, for a host that passes the body as it came).
  const nested = body?.subset
  const source =
    nested && typeof nested === 'object' && !Array.isArray(nested)
      ? (nested as Record<string, unknown>)
      : body
  for (const key of SUBSET_KEYS)
    if (source && source[key] !== undefined) raw.set(key, source[key])
  return raw
}

/**
 * The request's subset, or null when it names none. Problems go to `errors` per field, with
 * Electric's messages.
 */
export function readSubset(
  query: URLSearchParams,
  body: Record<string, unknown> | null,
  errors: SubsetErrors,
): SubsetRequest | null {
  const raw = rawFields(query, body)
  if (raw.size === 0) return null
  const text = (key: 'where' | 'order_by'): string | null => {
    const value = raw.get(key)
    if (value === undefined || value === null || value === '') return null
    if (typeof value === 'string') return value
    errors[key] = ['is invalid']
    return null
  }
  const bounded = (key: 'limit' | 'offset', min: number, max: number) => {
    const value = raw.get(key)
    if (value === undefined || value === null || value === '') return null
    const n = integer(value)
    if (n === null) errors[key] = ['is invalid']
    else if (n < min)
      errors[key] = [
        min === 0
          ? 'must be greater than or equal to 0'
          : 'must be greater than 0',
      ]
    else if (n > max) errors[key] = [`must be less than or equal to ${max}`]
    return n
  }
  const limit = bounded('limit', 1, MAX_SUBSET_LIMIT)
  const offset = bounded('offset', 0, MAX_SUBSET_OFFSET)
  const orderBy = text('order_by')
  if (
    (limit !== null || offset !== null) &&
    orderBy === null &&
    !errors.order_by
  )
    errors.order_by = ['order_by is required when limit or offset is present']
  let params: string[] = []
  const rawParams = raw.get('params')
  if (rawParams !== undefined && rawParams !== null && rawParams !== '') {
    let value: unknown = rawParams
    if (typeof value === 'string') {
      try {
        value = JSON.parse(value)
      } catch {
        value = undefined
        errors.params = ['params must be valid JSON']
      }
    }
    if (value !== undefined) {
      const found = paramsFromJson(value)
      const list = found ? paramList(found) : null
      if (!list) errors.params = ['params must be a JSON object']
      else if ('error' in list) errors.params = [list.error]
      else params = list.values
    }
  }
  return { where: text('where'), params, limit, offset, orderBy }
}
