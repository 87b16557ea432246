// A POST's JSON body joined to its query as Electric joins them: the body may hold the shape's
// parameters as well as the subset's. Its subset (`body.subset` when an object, else the
// body's subset keys) goes over the query's `subset__*`; its other keys go over the query's.
// Only parameters a read uses are taken: a body never carries credentials (checked on the
// query before this) or anything else the query would not.
import type { ProtocolErrors } from './protocol-errors.ts'
import { isSubsetKey } from './subset-request.ts'

/** The body's keys that Electric takes as the subset's when `subset` is not an object. */
const isBodySubsetKey = (key: string) =>
  isSubsetKey(key) || key === 'where_expr' || key === 'order_by_expr'

const TEXT = [
  'table',
  'where',
  'replica',
  'log',
  'offset',
  'handle',
  'cursor',
  'live',
  'live_sse',
  'experimental_live_sse',
  'experimental_compaction',
]
const BOOLEAN = new Set([
  'live',
  'live_sse',
  'experimental_live_sse',
  'experimental_compaction',
])
const COLUMN_LISTS = new Set(['columns', 'queryable_columns'])
const READ = new Set([...TEXT, ...COLUMN_LISTS, 'params'])

export type Merged = {
  query: URLSearchParams
  /** The subset's fields from the body (over the query's `subset__*`), or null. */
  subset: Record<string, unknown> | null
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** A JSON list of names as a `columns` text: each quoted, so any name reads back as itself. */
function columnList(value: unknown): string | null {
  if (!Array.isArray(value) || value.length === 0) return null
  if (!value.every((v) => typeof v === 'string')) return null
  return value.map((v) => `"${v.replaceAll('"', '""')}"`).join(',')
}

/** A body value as its query text; null: refused as Electric refuses it (`is invalid`). */
function asText(key: string, value: unknown): string | null {
  if (typeof value === 'string') return value
  if (typeof value === 'boolean' && BOOLEAN.has(key)) return String(value)
  if (COLUMN_LISTS.has(key)) return columnList(value)
  if (key === 'params' && (isObject(value) || Array.isArray(value)))
    return JSON.stringify(value)
  return null
}

function setParam(
  query: URLSearchParams,
  errors: ProtocolErrors,
  key: string,
  value: unknown,
): void {
  if (!READ.has(key)) return
  // The body's params replace the query's, in either of its forms.
  if (key === 'params')
    for (const name of [...query.keys()])
      if (name.startsWith('params[')) query.delete(name)
  if (value === null) {
    query.delete(key)
    return
  }
  const text = asText(key, value)
  if (text === null) errors[key] = ['is invalid']
  else query.set(key, text)
}

/** The query with the body's shape keys over it, and the body's subset. */
export function mergeBody(
  query: URLSearchParams,
  body: Record<string, unknown>,
  errors: ProtocolErrors,
): Merged {
  const keys = Object.keys(body)
  if (keys.length === 0) return { query, subset: null }
  const merged = new URLSearchParams(query)
  const nested = body.subset
  let subset: Record<string, unknown> | null = null
  let shapeKeys: string[]
  if (isObject(nested)) {
    subset = nested
    shapeKeys = keys.filter((k) => k !== 'subset')
  } else {
    const subsetKeys = keys.filter(isBodySubsetKey)
    if (subsetKeys.length > 0)
      subset = Object.fromEntries(subsetKeys.map((k) => [k, body[k]]))
    shapeKeys = keys.filter((k) => !isBodySubsetKey(k))
    // A subset that is neither an object nor null, with no subset keys beside it.
    if (subset === null && nested !== undefined && nested !== null)
      errors.subset = ['is invalid']
  }
  for (const key of shapeKeys) setParam(merged, errors, key, body[key])
  return { query: merged, subset }
}
