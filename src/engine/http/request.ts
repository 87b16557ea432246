// Reads a shape request's protocol parameters (and, for the open engine, its definition)
// into typed values, collecting errors per parameter as Electric reports them.
import {
  DefinitionError,
  parseColumns,
  parseTable,
  type ShapeDefinition,
} from '../shapes/definition.ts'
import { parseOffset, type Offset } from '../storage/offset.ts'
import { castBoolean, checkBooleans } from './boolean-params.ts'
import { refuseNul } from './nul.ts'
import {
  paramList,
  paramsFromJson,
  readSubset,
  type SubsetErrors,
  type SubsetRequest,
} from './subset-request.ts'

export type ShapeRequest = {
  offset: Offset | 'now'
  handle: string | null
  live: boolean
  /** Live as a server-sent event stream (`live_sse`, or the older `experimental_live_sse`). */
  sse: boolean
  cursor: string | null
  /** A subset snapshot is asked for, rather than the log. */
  subset: SubsetRequest | null
  /** `experimental_compaction=true`: refused for a shape with subqueries, as Electric does. */
  compaction: boolean
}

import type { ProtocolErrors } from './protocol-errors.ts'

export type { Errors, ProtocolErrors } from './protocol-errors.ts'

/**
 * Whether a request's `live` asks to wait for changes: any value but `false`, as Electric reads
 * it. The one reading, so a caller re-checking a live answer (the gateway's session and
 * membership) never misses one the engine waited on.
 */
export const parseLive = (text: string | null): boolean =>
  text !== null && text !== 'false'

/** `body`: a POST body's subset fields (merge-body.ts), which override the query's. */
export function parseProtocol(
  query: URLSearchParams,
  errors: ProtocolErrors,
  body: Record<string, unknown> | null = null,
): ShapeRequest {
  const offsetText = query.get('offset')
  let offset: Offset | 'now' = { tx: -1n, op: 0 }
  if (offsetText === null) errors.offset = ["can't be blank"]
  else if (offsetText === 'now') offset = 'now'
  else {
    const parsed = parseOffset(offsetText)
    if (parsed) offset = parsed
    else errors.offset = ['has invalid format']
  }
  const before = offset !== 'now' && offset.tx < 0n
  const handle = query.get('handle')
  if (!handle && !before && offset !== 'now' && !errors.offset)
    errors.handle = ["can't be blank when offset != -1"]
  const live = parseLive(query.get('live'))
  if (live && (before || offset === 'now'))
    errors.live = [
      `can't be true when offset == ${offset === 'now' ? 'now' : '-1'}`,
    ]
  const sse = readSse(query, errors)
  if (sse && !live && !errors.live)
    errors.live_sse = ["can't be true unless live is also true"]
  const subsetErrors: SubsetErrors = {}
  const subset = readSubset(query, body, subsetErrors)
  if (Object.keys(subsetErrors).length > 0) errors.subset = subsetErrors
  // Read by Electric as a storage switch; the engine compacts by its own rule, but checks it as
  // Electric, which also refuses it for a shape with subqueries (serve-shape.ts).
  checkBooleans(query, ['experimental_compaction'], errors)
  refuseNul(query, body, errors)
  return {
    offset,
    // Electric drops a handle sent with offset=now: the answer names the live shape anyway.
    handle: before || offset === 'now' ? null : handle,
    live,
    sse,
    cursor: query.get('cursor'),
    subset,
    compaction: castBoolean(query.get('experimental_compaction')) === true,
  }
}

/**
 * Whether live is asked as an event stream. `live_sse` is read as `live` is (anything but
 * `false`); the older `experimental_live_sse`, read only without it, is cast as a strict boolean
 * and its errors named `live_sse`: Electric copies it there after converting `live_sse` alone.
 */
function readSse(query: URLSearchParams, errors: ProtocolErrors): boolean {
  const text = query.get('live_sse')
  if (text !== null) return text !== 'false'
  const older = castBoolean(query.get('experimental_live_sse'))
  if (older === 'invalid') {
    errors.live_sse = ['is invalid']
    return false
  }
  return older === true
}

/** `params[1]=..&params[2]=..` (or `params=` as a JSON array or object): keys must be 1..n. */
export function parseParams(
  query: URLSearchParams,
  errors: ProtocolErrors,
): string[] {
  const found = new Map<number, unknown>()
  // forEach and a prefix test: every live request passes here, and iterating the query's
  // entries built an array per parameter (bench:engine heap profile).
  query.forEach((value, key) => {
    if (!key.startsWith('params[')) return
    const m = /^params\[(\d{1,6})\]$/.exec(key)
    if (m) found.set(Number(m[1]), value)
  })
  const json = query.get('params')
  if (json) {
    let fromJson: Map<number, unknown> | null
    try {
      fromJson = paramsFromJson(JSON.parse(json))
    } catch {
      fromJson = null
    }
    if (!fromJson) {
      errors.params = ['must be an array of values or params[n] keys']
      return []
    }
    for (const [n, value] of fromJson) found.set(n, value)
  }
  const list = paramList(found)
  if ('error' in list) {
    errors.params = [list.error]
    return []
  }
  return list.values
}

/** fn's value, or null with its DefinitionError recorded against param. */
function guarded<T>(
  errors: ProtocolErrors,
  param: string,
  fn: () => T,
): T | null {
  try {
    return fn()
  } catch (error) {
    if (!(error instanceof DefinitionError)) throw error
    errors[param] = [error.message]
    return null
  }
}

export function parseDefinition(
  query: URLSearchParams,
  errors: ProtocolErrors,
): ShapeDefinition | null {
  const definition = readDefinition(query, errors)
  refuseNul(query, null, errors)
  return definition
}

function readDefinition(
  query: URLSearchParams,
  errors: ProtocolErrors,
): ShapeDefinition | null {
  const tableText = query.get('table')
  if (!tableText) {
    // Unless a POST body's table was refused already (merge-body.ts).
    errors.table ??= ["can't be blank"]
    return null
  }
  const table = guarded(errors, 'table', () => parseTable(tableText))
  const columnsText = query.get('columns')
  const columns = columnsText
    ? guarded(errors, 'columns', () => parseColumns(columnsText))
    : null
  const queryableText = query.get('queryable_columns')
  const queryable = queryableText
    ? guarded(errors, 'queryable_columns', () =>
        parseColumns(queryableText, 'queryable_columns').sort(),
      )
    : null
  const replica = query.get('replica') ?? 'default'
  if (replica !== 'default' && replica !== 'full')
    errors.replica = ['is invalid']
  const params = parseParams(query, errors)
  const log = query.get('log') ?? 'full'
  if (log !== 'full' && log !== 'changes_only') errors.log = ['is invalid']
  if (!table) return null
  return {
    table,
    where: query.get('where') || null,
    params,
    columns,
    replica: replica === 'full' ? 'full' : 'default',
    ...(queryable ? { queryable } : {}),
    // Only a changes-only shape says so: a full one is the definition it always was.
    ...(log === 'changes_only' ? { log } : {}),
  }
}
