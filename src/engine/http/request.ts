// Reads a shape request's protocol parameters (and, for the open engine, its definition)
// into typed values, collecting errors per parameter as Electric reports them.
import {
  DefinitionError,
  parseColumns,
  parseTable,
  type ShapeDefinition,
} from '../shapes/definition.ts'
import { parseOffset, type Offset } from '../shapes/offset.ts'

export type ShapeRequest = {
  offset: Offset | 'now'
  handle: string | null
  live: boolean
  cursor: string | null
}

export type Errors = Record<string, string[]>

export function parseProtocol(
  query: URLSearchParams,
  errors: Errors,
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
  const liveText = query.get('live')
  const live = liveText !== null && liveText !== 'false'
  if (live && (before || offset === 'now'))
    errors.live = [
      `can't be true when offset == ${offset === 'now' ? 'now' : '-1'}`,
    ]
  return {
    offset,
    // Electric drops a handle sent with offset=now: the answer names the live shape anyway.
    handle: before || offset === 'now' ? null : handle,
    live,
    cursor: query.get('cursor'),
  }
}

/** `params[1]=..&params[2]=..` (or `params=` as a JSON array): keys must be exactly 1..n. */
export function parseParams(query: URLSearchParams, errors: Errors): string[] {
  const found = new Map<number, string>()
  for (const [key, value] of query) {
    const m = /^params\[(\d+)\]$/.exec(key)
    if (m) found.set(Number(m[1]), value)
  }
  const json = query.get('params')
  if (json) {
    try {
      const list: unknown = JSON.parse(json)
      if (!Array.isArray(list)) throw new Error()
      list.forEach((v, i) => found.set(i + 1, String(v)))
    } catch {
      errors.params = ['must be an array of values or params[n] keys']
    }
  }
  const params: string[] = []
  for (let i = 1; i <= found.size; i++) {
    const value = found.get(i)
    if (value === undefined) {
      errors.params = ['keys must be consecutive integers starting at 1']
      return []
    }
    params.push(value)
  }
  return params
}

export function parseDefinition(
  query: URLSearchParams,
  errors: Errors,
): ShapeDefinition | null {
  const guard = <T>(param: string, fn: () => T): T | null => {
    try {
      return fn()
    } catch (error) {
      if (!(error instanceof DefinitionError)) throw error
      errors[param] = [error.message]
      return null
    }
  }
  const tableText = query.get('table')
  if (!tableText) {
    errors.table = ["can't be blank"]
    return null
  }
  const table = guard('table', () => parseTable(tableText))
  const columnsText = query.get('columns')
  const columns = columnsText
    ? guard('columns', () => parseColumns(columnsText))
    : null
  const replica = query.get('replica') ?? 'default'
  if (replica !== 'default' && replica !== 'full')
    errors.replica = ['is invalid']
  const params = parseParams(query, errors)
  if (!table) return null
  return {
    table,
    where: query.get('where') || null,
    params,
    columns,
    replica: replica === 'full' ? 'full' : 'default',
  }
}
