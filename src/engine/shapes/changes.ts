// Turns one replicated change into the messages a shape's clients see: rows moving into the
// where clause become inserts, rows moving out become deletes, a primary-key change is a
// delete of the old key and an insert of the new.
import type { Change, Row, Transaction } from '../replication/types.ts'
import type { LogRecord } from '../storage/shape-log.ts'
import type { Visibility } from './visibility.ts'
import { tagHeaders, type RowTags } from './subqueries/tags.ts'

export type ShapeView = {
  relation: [string, string]
  /** Columns sent to clients, table order. */
  columns: string[]
  primaryKey: string[]
  replica: 'default' | 'full'
  matches(row: Row): boolean
  /** A shape with subqueries: each row's tags and active conditions (subqueries/tags.ts). */
  tagged?: (row: Row) => RowTags
}

type Message = {
  operation: 'insert' | 'update' | 'delete'
  row: Row
  old?: Row
  op: number
  /**
   * An update of a tagged row sent in two (retagged()): `untag` carries only the key and the
   * tags it lost, `retag` the change and the tags it has.
   */
  part?: 'untag' | 'retag'
}

// Module-level, not closures of the functions below: they run for every change of every
// shape, and under tsx every named closure costs a call that sets its name.
const quote = (v: string) => `"${v.replace(/"/g, '""')}"`

function rowKey(view: ShapeView, row: Row): string {
  const [schema, table] = view.relation
  let key = `${quote(schema)}.${quote(table)}`
  for (const c of view.primaryKey) key += `/${quote(row[c] ?? '_')}`
  return key
}

function pick(row: Row, columns: string[]): Row {
  const out: Row = {}
  for (const c of columns) out[c] = row[c] ?? null
  return out
}

function keyChanged(view: ShapeView, oldRow: Row, newRow: Row): boolean {
  return view.primaryKey.some((c) => oldRow[c] !== newRow[c])
}

function messagesFor(view: ShapeView, change: Change, op: number): Message[] {
  switch (change.kind) {
    case 'insert':
      return view.matches(change.newRow)
        ? [{ operation: 'insert', row: change.newRow, op }]
        : []
    case 'delete':
      return view.matches(change.oldRow)
        ? [{ operation: 'delete', row: change.oldRow, op }]
        : []
    case 'update': {
      const oldRow = change.oldRow ?? change.newRow
      const was = view.matches(oldRow)
      const is = view.matches(change.newRow)
      if (was && is) {
        if (keyChanged(view, oldRow, change.newRow))
          return [
            { operation: 'delete', row: oldRow, op },
            { operation: 'insert', row: change.newRow, op: op + 1 },
          ]
        if (
          view.tagged &&
          change.oldRow &&
          retagged(view.tagged, change.oldRow, change.newRow)
        )
          return [
            {
              operation: 'update',
              row: change.newRow,
              old: change.oldRow,
              op,
              part: 'untag',
            },
            {
              operation: 'update',
              row: change.newRow,
              old: change.oldRow,
              op: op + 1,
              part: 'retag',
            },
          ]
        // No old row (a table not yet FULL, e.g. a partition just attached): which columns
        // changed is unknown, so the update carries them all.
        return [
          {
            operation: 'update',
            row: change.newRow,
            old: change.oldRow ?? undefined,
            op,
          },
        ]
      }
      if (was) return [{ operation: 'delete', row: oldRow, op }]
      if (is) return [{ operation: 'insert', row: change.newRow, op }]
      return []
    }
    case 'truncate':
      return []
  }
}

/**
 * Whether an update moves a tag to another value at a slot it keeps: `A/B` becoming `A/C`.
 * Sent as Electric sends it (`tags: ["A/C"]`, `removed_tags: ["A/B"]`), TanStack DB's electric
 * collection adds the new tags, then drops the row from every slot value of the removed ones,
 * A's included, so a later move-out of A misses the row. Such an update is sent as two: the
 * tags it lost first, then the change with the tags it has; every consumer reads the same rows.
 */
function retagged(
  tagged: (row: Row) => RowTags,
  oldRow: Row,
  newRow: Row,
): boolean {
  const now = tagged(newRow).tags
  const kept = new Set(now)
  for (const [i, before] of tagged(oldRow).tags.entries()) {
    if (kept.has(before)) continue
    const after = (now[i] ?? '').split('/')
    if (before.split('/').some((slot, pos) => slot && slot === after[pos]))
      return true
  }
  return false
}

function valueOf(view: ShapeView, m: Message): { value: Row; old_value?: Row } {
  if (m.operation === 'insert') return { value: pick(m.row, view.columns) }
  if (m.part === 'untag') return { value: pick(m.row, view.primaryKey) }
  if (m.operation === 'delete')
    return {
      value:
        view.replica === 'full'
          ? pick(m.row, view.columns)
          : pick(m.row, view.primaryKey),
    }
  const old = m.old
  // An unchanged TOASTed value is absent from a row whose old row is unknown: left out, the
  // client keeps the value it has.
  if (!old)
    return {
      value: pick(
        m.row,
        view.columns.filter((c) => c in m.row),
      ),
    }
  const changed = view.columns.filter((c) => old[c] !== m.row[c])
  if (view.replica === 'full')
    return {
      value: pick(m.row, view.columns),
      old_value: pick(old, changed),
    }
  const sent = [...new Set([...view.primaryKey, ...changed])]
  return {
    value: pick(
      m.row,
      view.columns.filter((c) => sent.includes(c)),
    ),
  }
}

function recordOf(
  view: ShapeView,
  tx: Transaction,
  at: bigint,
  lsn: string,
  m: Message,
  last: boolean,
): LogRecord {
  // Written out rather than one JSON.stringify of a fresh object: the same text (same key
  // order) for less garbage, on the path every change of every shape takes.
  const { value, old_value } = valueOf(view, m)
  const json =
    `{"key":${JSON.stringify(rowKey(view, m.row))},"value":${JSON.stringify(value)}` +
    (old_value ? `,"old_value":${JSON.stringify(old_value)}` : '') +
    `,"headers":{"operation":"${m.operation}","relation":${JSON.stringify(view.relation)}` +
    `,"txids":[${tx.xid}],"lsn":"${lsn}","op_position":${m.op}${last ? ',"last":true' : ''}` +
    `${view.tagged ? changeTags(view.tagged, m) : ''}}}`
  return { offset: { tx: at, op: m.op }, json, last }
}

// An update says which of the old row's tags the new one lost; a delete carries the old row's.
// An update sent in two (retagged()) says each in its own part.
function changeTags(tagged: (row: Row) => RowTags, m: Message): string {
  const tags = tagged(m.row)
  if (m.operation !== 'update' || m.part === 'retag') return tagHeaders(tags)
  const kept = new Set(tags.tags)
  const removed = m.old ? tagged(m.old).tags.filter((t) => !kept.has(t)) : []
  return m.part === 'untag'
    ? `,"removed_tags":${JSON.stringify(removed)}`
    : tagHeaders(tags, removed)
}

/** How a shape with subqueries places its records (subqueries/mover.ts). */
type Layout = {
  /** The offsets' tx, when not the commit LSN (a transaction applied after a move-in). */
  at: bigint
  /** The first op: events from here, then `eventOps` further the changes. */
  base: number
  eventOps: number
  /** Changes of tables only its subqueries read: they make no records. */
  skip(change: Change): boolean
}

/**
 * The log records of one transaction for one shape, built change by change so the caller can
 * yield between changes. The newest record is held back: only at finish() is it known to be
 * the shape's final one (`last`).
 */
export class TransactionRecords {
  private records: LogRecord[] = []
  // A change's message, or an event's JSON: built into a record only once `last` is known.
  private held: Message | { json: string; op: number } | null = null
  private readonly lsn: string
  private readonly at: bigint
  /** Rows moved in less rows moved out (since the last take()): how the row count changes. */
  rowDelta = 0

  constructor(
    private readonly view: ShapeView,
    private readonly tx: Transaction,
    private readonly layout?: Layout,
  ) {
    this.lsn = tx.commitLsn.toString()
    this.at = layout ? layout.at : tx.commitLsn
  }

  /** The `i`th event record (a move-out), before any change's; answers its offset. */
  event(json: string, i: number): { tx: bigint; op: number } {
    const op = (this.layout?.base ?? 0) + i
    this.hold({ json, op })
    return { tx: this.at, op }
  }

  add(change: Change, index: number): void {
    const layout = this.layout
    if (layout?.skip(change)) return
    const op = layout ? layout.base + layout.eventOps + index * 2 : index * 2
    for (const m of messagesFor(this.view, change, op)) {
      if (m.operation !== 'update')
        this.rowDelta += m.operation === 'insert' ? 1 : -1
      this.hold(m)
    }
  }

  private hold(next: Message | { json: string; op: number }): void {
    if (this.held) this.records.push(this.record(this.held, false))
    this.held = next
  }

  private record(
    held: Message | { json: string; op: number },
    last: boolean,
  ): LogRecord {
    return 'json' in held
      ? {
          offset: { tx: this.at, op: held.op },
          json: held.json,
          last,
        }
      : recordOf(this.view, this.tx, this.at, this.lsn, held, last)
  }

  /**
   * The records complete so far (all but the newest message), and the row delta not yet taken:
   * for a transaction appended in parts. What finish() answers then is what came after.
   */
  take(): { records: LogRecord[]; rowDelta: number } {
    const taken = { records: this.records, rowDelta: this.rowDelta }
    this.records = []
    this.rowDelta = 0
    return taken
  }

  finish(): LogRecord[] {
    if (this.held) this.records.push(this.record(this.held, true))
    this.held = null
    return this.records
  }
}

// An insert of a whole row, as snapshots, move-ins and subsets send it: with its tags when the
// shape has subqueries, and the headers that say which of those brought it.
function insertMessage(
  view: ShapeView,
  row: Row,
  extra?: Record<string, unknown>,
): string {
  const tags = view.tagged?.(row)
  return JSON.stringify({
    key: rowKey(view, row),
    value: pick(row, view.columns),
    headers: {
      operation: 'insert',
      relation: view.relation,
      ...(tags && { tags: tags.tags, active_conditions: tags.active }),
      ...extra,
    },
  })
}

/** A snapshot row as a log record at `0_<index>`. */
export function snapshotRecord(
  view: ShapeView,
  row: Row,
  index: number,
): LogRecord {
  const json = insertMessage(view, row)
  return { offset: { tx: 0n, op: index }, json, last: true }
}

/** A row a move-in brings (subqueries/moves.ts): an insert, flagged as Electric flags it. */
export const moveInRecord = (view: ShapeView, row: Row): string =>
  insertMessage(view, row, { is_move_in: true })

/**
 * A row of a subset snapshot: an insert as in the initial snapshot, tagged with the snapshot's
 * mark so the client can tell which request brought it.
 */
export const subsetMessage = (view: ShapeView, row: Row, mark: number) =>
  insertMessage(view, row, { snapshot_mark: mark })

/**
 * Ends a snapshot in the log, as Electric does: which transactions it holds. The xids are
 * strings, 64-bit values JavaScript numbers cannot carry.
 */
export function snapshotEndMessage(v: Visibility): string {
  return JSON.stringify({
    headers: {
      control: 'snapshot-end',
      xmin: v.xmin.toString(),
      xmax: v.xmax.toString(),
      xip_list: v.xip.map(String),
    },
  })
}
