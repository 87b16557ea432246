// What the control plane's `source_shapes` rows of one source should become, given what the
// engine holds now (pure, so the rate bound is tested without a clock). A shape that came or
// went is written at once; its counters and last read only when the caller says updates are
// due (once per interval), and only when one of them changed.
import type { ShapeFacts } from '../../../engine/index.ts'
import type { ShapeRates } from './rates.ts'

/** The dashboard shows at most this much of a where clause (a clause may be 64 KiB). */
export const WHERE_SHOWN_MAX = 2_000
/** And of each param, and this many params (a shape may have 1,000 of 64 KiB each). */
export const PARAM_SHOWN_MAX = 200
export const PARAMS_SHOWN_MAX = 20

/** One `source_shapes` row as written (times in ms since the epoch). */
export type ShapeRow = ShapeRates & {
  handle: string
  table_schema: string
  table_name: string
  where_clause: string | null
  params: string[]
  row_count: number
  log_bytes: number
  created_at: number
  last_read_at: number | null
  clients: number
  requests: number
  bytes_sent: number
  changes_written: number
  stalled_requests: number
  log_entries: number
  snapshot_ms: number | null
  last_rotation_at: number | null
  last_rotation_cause: string | null
  /** Not a column: a snapshot completing is shown at once, not an interval later. */
  ready: boolean
}

export type ShapeWrites = { upserts: ShapeRow[]; deletes: string[] }

const clip = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max)}…` : text

/**
 * The row for a shape. `lastReadBefore`: what the row said before this server (re)started the
 * source, for a reopened shape no client has read since.
 */
export function shapeRowOf(
  facts: ShapeFacts,
  lastReadBefore: number | null = null,
  rates: ShapeRates = NO_RATES,
): ShapeRow {
  return {
    ...rates,
    handle: facts.handle,
    table_schema: facts.table.schema,
    table_name: facts.table.name,
    where_clause:
      facts.where === null ? null : clip(facts.where, WHERE_SHOWN_MAX),
    params: facts.params
      .slice(0, PARAMS_SHOWN_MAX)
      .map((param) => clip(param, PARAM_SHOWN_MAX)),
    row_count: facts.rows,
    log_bytes: facts.logBytes,
    created_at: facts.createdAt,
    last_read_at: facts.lastReadAt ?? lastReadBefore,
    clients: facts.clients,
    requests: facts.requests,
    bytes_sent: facts.bytesSent,
    changes_written: facts.changesWritten,
    stalled_requests: facts.stalled,
    log_entries: facts.logEntries,
    snapshot_ms: facts.snapshotMs,
    last_rotation_at: facts.lastRotation?.at ?? null,
    last_rotation_cause: facts.lastRotation?.cause ?? null,
    ready: facts.ready,
  }
}

const NO_RATES: ShapeRates = {
  requests_per_minute: 0,
  bytes_per_minute: 0,
  changes_per_minute: 0,
}

/** The columns updated once per interval when they changed (the rest are the definition). */
export const COUNTER_COLUMNS = [
  'row_count',
  'log_bytes',
  'last_read_at',
  'clients',
  'requests',
  'bytes_sent',
  'changes_written',
  'requests_per_minute',
  'bytes_per_minute',
  'changes_per_minute',
  'stalled_requests',
  'log_entries',
  'snapshot_ms',
] as const satisfies readonly (keyof ShapeRow)[]

const countersChanged = (a: ShapeRow, b: ShapeRow) =>
  COUNTER_COLUMNS.some((column) => a[column] !== b[column])

/** `written`: the rows as last written, by handle. */
export function planShapeWrites(
  written: ReadonlyMap<string, ShapeRow>,
  current: ShapeRow[],
  updatesDue: boolean,
): ShapeWrites {
  const held = new Set(current.map((row) => row.handle))
  const deletes = [...written.keys()].filter((handle) => !held.has(handle))
  const upserts = current.filter((row) => {
    const before = written.get(row.handle)
    if (!before || before.ready !== row.ready) return true
    return updatesDue && countersChanged(before, row)
  })
  return { upserts, deletes }
}
