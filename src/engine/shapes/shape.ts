// One live shape: its definition, handle, log, the snapshot it started from, and the
// readers waiting at its tail. Its metadata is a small JSON file beside the log. What it
// tells about itself (facts()) is kept in memory, so asking costs no disk I/O.
import { randomBytes } from 'node:crypto'
import {
  existsSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { flat } from '../flat.ts'
import { PRIVATE_FILE } from '../storage/private-files.ts'
import type { Change, Row, Transaction } from '../replication/types.ts'
import {
  snapshotEndMessage,
  snapshotRecord,
  TransactionRecords,
  type ShapeView,
} from './changes.ts'
import {
  definitionKey,
  wantedColumns,
  type ShapeDefinition,
  type TableName,
} from './definition.ts'
import type { LogStorage, ShapeLog } from '../storage/shape-log.ts'
import type { Offset } from '../storage/offset.ts'
import { sentColumns, type TableInfo } from './table-info.ts'
import { TimeSlice } from '../time-slice.ts'
import { isVisible, type Visibility } from './visibility.ts'
import type { CompiledWhere } from '../where/types.ts'
import { SubqueryMoves } from './subqueries/moves.ts'
import { Mover, type MoverHost } from './subqueries/mover.ts'
import { rowTags } from './subqueries/tags.ts'

/**
 * Tells a waiting request its client has gone: an AbortSignal, or the little of one a Node
 * response can give without building an AbortController (http/node-request.ts).
 */
export type WaitSignal = {
  readonly aborted: boolean
  addEventListener(type: 'abort', listener: () => void): void
  removeEventListener(type: 'abort', listener: () => void): void
}

/** What waits for a shape's next change: a parked long-poll (http/long-poll.ts), a promise. */
export interface Waiter {
  wake(): void
  /**
   * When its request should have had an answer (ms since the epoch): its long-poll timeout.
   * One still waiting well past it is stalled (facts()). Infinity: no such bound (a watch).
   */
  readonly due: number
}

/**
 * A request this long past its due time is stalled: a timer firing late on a busy process is
 * not a stall, a request that never ends is (electric-sql/electric#4708).
 */
const STALL_GRACE_MS = 5_000

/** Why a shape was rotated: the invalidation log's causes. */
export type RotationCause =
  | 'clear_cache'
  | 'schema_change'
  | 'slot_lost'
  | 'deleted'
  | 'evicted'
  | 'dependency'

/**
 * One rotation of a shape that had served its snapshot and why. `clients` and `bytesReread`
 * grow for a while after (`rereadUntil`): each client that was reading it comes back naming
 * its handle and is sent to the successor once (a 409), then reads the successor from the
 * start. Counting those 409s counts every client streaming it, parked at that moment or
 * between two requests.
 */
export type Invalidation = {
  /** Increasing within one engine: whoever copies them out knows which it has. */
  seq: number
  at: number
  handle: string
  table: TableName
  where: string | null
  cause: RotationCause
  /** What exactly: "table truncated", "log outgrew its snapshot", a subquery's table. */
  detail: string | null
  clients: number
  bytesReread: number
  /** Catch-up reads count as re-reads until then (ms since the epoch). */
  rereadUntil: number
}

// Shapes published since the last wake-up pass, woken together once the I/O already read is
// processed (setImmediate runs after the replication data in hand, and before the next read).
const toWake = new Set<Shape>()
let wakeScheduled = false

function wakeSoon(shape: Shape): void {
  toWake.add(shape)
  if (wakeScheduled) return
  wakeScheduled = true
  setImmediate(wakeAll)
}

function wakeAll(): void {
  wakeScheduled = false
  const shapes = [...toWake]
  toWake.clear()
  for (const shape of shapes) shape.wake()
}

export type ShapeMeta = {
  handle: string
  /** Log size when the snapshot completed: the yardstick for "this log has outgrown it". */
  snapshotBytes: number
  definition: ShapeDefinition
  visibility: Visibility
  /** Columns sent, and the schema header, as they were when the snapshot ran. */
  columns: string[]
  schema: string
  primaryKey: string[]
  /** When the shape was created (ms since the epoch); absent in metadata written before. */
  createdAt?: number
}

/** What a shape is and how it stands, for whoever runs the engine to show. */
export type ShapeFacts = {
  handle: string
  table: TableName
  where: string | null
  params: string[]
  /** Its snapshot is complete: until then it holds no rows a client can read. */
  ready: boolean
  /** The rows a client holds once it has read everything published. */
  rows: number
  logBytes: number
  /** Milliseconds since the epoch. */
  createdAt: number
  /** When a client was last answered from it; null if none was since the engine started. */
  lastReadAt: number | null
  /** Clients now: long-polls waiting on it and SSE streams open. */
  clients: number
  /** Requests answered from it, and the bytes of their answers, since the engine opened it. */
  requests: number
  bytesSent: number
  /** Requests open well past their long-poll timeout (STALL_GRACE_MS). */
  stalled: number
  /** Records written to its log since the engine opened it (changes and control messages). */
  changesWritten: number
  /** Records in its log: what a new client reads, against `rows`. */
  logEntries: number
  /** How long its snapshot took; null if not taken by this engine (reopened) or not done. */
  snapshotMs: number | null
  /** Why the shape before it (same definition) was rotated, and when; null if none was. */
  lastRotation: { at: number; cause: RotationCause } | null
}

type Pending = {
  tx: Transaction
  changes: Array<{ change: Change; index: number }>
}

const matchesAll = () => true

/** Handles are never reused: a hash of the definition plus the creation time and randomness. */
function newHandle(def: ShapeDefinition): string {
  let hash = 0
  for (const ch of definitionKey(def))
    hash = (Math.imul(hash, 31) + ch.charCodeAt(0)) | 0
  return flat(
    `${(hash >>> 0).toString(36)}-${Date.now()}${randomBytes(3).toString('hex')}`,
  )
}

export class Shape implements MoverHost {
  readonly key: string
  readonly view: ShapeView
  ready = false
  private visibility: Visibility | null
  /** Transactions waiting for the snapshot, or for a move-in (subqueries/mover.ts). */
  readonly pending: Pending[] = []
  private waiters = new Set<Waiter>()
  private snapshotIndex = 0
  snapshotBytes = 0
  failure: Error | null = null
  createdAt = Date.now()
  lastReadAt: number | null = null
  // Counters read by facts(): plain numbers bumped on the answer path, nothing allocated.
  private requests = 0
  private bytesSent = 0
  /** Its log's records at the snapshot's end (or when reopened): those after are written. */
  private entriesAtReady = 0
  /** SSE streams open, and how many of them wait among `waiters` now (not counted twice). */
  private sseStreams = 0
  private sseWaiting = 0
  snapshotMs: number | null = null
  /** Its predecessor's rotation (same definition): shown, and credited with catch-up reads. */
  replaced: Invalidation | null = null
  /** Its subqueries, followed and moved (subqueries/mover.ts); null without any. */
  readonly mover: Mover | null
  /** Columns its snapshot and move-ins read: those sent, and those its tags need. */
  readonly readColumns: string[]

  constructor(
    readonly handle: string,
    readonly definition: ShapeDefinition,
    readonly schema: string,
    readonly log: ShapeLog,
    view: Omit<ShapeView, 'matches'>,
    where: CompiledWhere | null,
    visibility: Visibility | null,
  ) {
    this.key = flat(definitionKey(definition))
    const plan = where?.subqueries
    this.view = {
      ...view,
      matches: where ? where.matches : matchesAll,
      ...(plan && { tagged: (row: Row) => rowTags(plan.dnf, handle, row) }),
    }
    this.mover = plan ? new Mover(this, new SubqueryMoves(plan, handle)) : null
    this.visibility = visibility
    this.readColumns =
      plan && where
        ? [...new Set([...view.columns, ...where.columns])]
        : view.columns
  }

  static forTable(
    logs: LogStorage,
    dir: string,
    definition: ShapeDefinition,
    info: TableInfo,
    where: CompiledWhere | null,
  ): Shape {
    const handle = newHandle(definition)
    const { columns, schema, relation } = sentColumns(
      info,
      wantedColumns(definition),
    )
    return new Shape(
      handle,
      definition,
      schema,
      logs.create(join(dir, handle)),
      {
        relation,
        columns,
        primaryKey: info.primaryKey,
        replica: definition.replica,
      },
      where,
      null,
    )
  }

  /** The metadata of a shape whose snapshot completed; null if it never did. */
  static readMeta(dir: string): ShapeMeta | null {
    const file = join(dir, 'meta.json')
    if (!existsSync(file)) return null
    return JSON.parse(readFileSync(file, 'utf8'), (k, v: unknown) =>
      ['xmin', 'xmax'].includes(k)
        ? BigInt(v as string)
        : k === 'xip'
          ? (v as string[]).map(BigInt)
          : v,
    ) as ShapeMeta
  }

  /** Reopens a shape after a restart, with its log recovered to the last whole transaction. */
  static reopen(
    logs: LogStorage,
    dir: string,
    meta: ShapeMeta,
    where: CompiledWhere | null,
  ): Shape {
    const shape = new Shape(
      meta.handle,
      meta.definition,
      meta.schema,
      logs.open(dir),
      {
        relation: [meta.definition.table.schema, meta.definition.table.name],
        columns: meta.columns,
        primaryKey: meta.primaryKey,
        replica: meta.definition.replica,
      },
      where,
      meta.visibility,
    )
    shape.snapshotBytes = meta.snapshotBytes
    shape.entriesAtReady = shape.log.entries
    // Metadata is written once the snapshot is complete: close enough to its creation.
    shape.createdAt = meta.createdAt ?? statSync(join(dir, 'meta.json')).mtimeMs
    shape.ready = true
    return shape
  }

  get lastOffset(): Offset {
    return this.log.lastOffset
  }

  /**
   * A client was answered from this shape now: `bytes` sent, by a new request (`request`) or
   * an SSE stream going on. `catchUp`: not a live read; after a rotation it re-reads.
   */
  markRead(bytes: number, request = true, catchUp = false): void {
    const now = Date.now()
    this.lastReadAt = now
    if (request) this.requests++
    this.bytesSent += bytes
    const replaced = this.replaced
    if (catchUp && replaced !== null && now < replaced.rereadUntil)
      replaced.bytesReread += bytes
  }

  /** A client of the shape `handle` was sent on to this one (a 409): counted once. */
  refetchedFrom(handle: string | null): void {
    const replaced = this.replaced
    if (
      replaced !== null &&
      replaced.handle === handle &&
      Date.now() < replaced.rereadUntil
    )
      replaced.clients++
  }

  /** An SSE stream opened (+1) or closed (-1) on this shape. */
  streams(delta: 1 | -1): void {
    this.sseStreams += delta
  }

  /** An SSE stream starts (+1) or stops (-1) waiting among the waiters. */
  streamWaits(delta: 1 | -1): void {
    this.sseWaiting += delta
  }

  /** Records written to its log since it opened for reads: changes, moves, control. */
  get changesWritten(): number {
    return this.ready ? this.log.entries - this.entriesAtReady : 0
  }

  /** Clients now: long-polls and watches waiting on it, and SSE streams. */
  get clients(): number {
    return this.waiters.size - this.sseWaiting + this.sseStreams
  }

  /** Requests still waiting well past their due time. */
  stalledAt(now: number): number {
    let stalled = 0
    for (const waiter of this.waiters)
      if (waiter.due + STALL_GRACE_MS < now) stalled++
    return stalled
  }

  facts(): ShapeFacts {
    const { table, where, params } = this.definition
    return {
      handle: this.handle,
      table,
      where,
      params,
      ready: this.ready,
      rows: this.log.rows,
      logBytes: this.log.bytes,
      createdAt: this.createdAt,
      lastReadAt: this.lastReadAt,
      clients: this.clients,
      requests: this.requests,
      bytesSent: this.bytesSent,
      stalled: this.stalledAt(Date.now()),
      changesWritten: this.changesWritten,
      logEntries: this.log.entries,
      snapshotMs: this.snapshotMs,
      lastRotation: this.replaced && {
        at: this.replaced.at,
        cause: this.replaced.cause,
      },
    }
  }

  addSnapshotRows(rows: Row[]): void {
    this.log.appendSnapshotRows(
      rows.map((row) => snapshotRecord(this.view, row, this.snapshotIndex++)),
    )
    // Requests waiting for the snapshot read its chunks as they fill (serve-shape.ts).
    if (this.waiters.size > 0) wakeSoon(this)
  }

  /**
   * Snapshot rows the COPY read wrote as log lines (snapshot-copy.ts): numbered from 0, as
   * addSnapshotRows numbers its rows (a shape's snapshot takes one of the two).
   */
  addSnapshotLines(lines: Buffer, rows: number): void {
    this.snapshotIndex += rows
    this.log.appendSnapshotLines(lines, rows, this.snapshotIndex - 1)
    if (this.waiters.size > 0) wakeSoon(this)
  }

  /** The snapshot is in the log: apply what arrived meanwhile, persist, open for reads. */
  async completeSnapshot(visibility: Visibility): Promise<void> {
    this.visibility = visibility
    this.log.appendSnapshotEnd(snapshotEndMessage(visibility))
    this.snapshotBytes = this.log.bytes
    this.mover?.snapshotted()
    // The metadata says "this snapshot is complete": it must never exist before the rows do.
    await this.log.sync()
    this.writeMeta()
    // Until nothing waits, checked where `ready` is set: a transaction can arrive after the
    // drain's last look and before this continuation runs, and one queued then would never be
    // applied (those after it go straight to the log). A move-in started meanwhile takes
    // what waits instead.
    const slice = new TimeSlice()
    do await this.drain(slice)
    while (this.pending.length > 0 && !this.mover?.moving && !this.closed)
    if (this.closed) return
    // Its rows and the snapshot's end: what follows was written since.
    this.entriesAtReady = this.snapshotIndex + 1
    this.ready = true
    this.publish()
  }

  /**
   * Applies the transactions that waited, oldest first, in time slices (those arriving while it
   * yields queue behind), until none is left or one starts a move-in (the rest wait for it).
   */
  async drain(slice: TimeSlice): Promise<void> {
    while (this.pending.length > 0 && !this.mover?.moving) {
      const { tx, changes } = this.pending.shift() as Pending
      const records = this.recordsFor(tx, changes)
      if (!records) continue
      for (const { change, index } of changes) {
        records.add(change, index)
        if (slice.tick()) {
          await slice.pause()
          if (this.closed) return
        }
      }
      this.append(records)
    }
  }

  /** Rotated, failed, or its log closed (the engine stopping): nothing more is appended. */
  get closed(): boolean {
    return this.failure !== null || this.log.isClosed
  }

  /**
   * Starts a transaction on this shape: the records to fill change by change (the caller may
   * yield between changes), then hand to append(). Null when there is nothing to evaluate now:
   * queued until the snapshot completes, or already held.
   */
  begin(
    tx: Transaction,
    changes: Array<{ change: Change; index: number }>,
  ): TransactionRecords | null {
    if (this.mover?.queue({ tx, changes })) return null
    if (!this.ready) {
      this.pending.push({ tx, changes })
      return null
    }
    return this.recordsFor(tx, changes)
  }

  /** Appends a transaction's records (unpublished until publish()). Returns whether any. */
  append(records: TransactionRecords): boolean {
    const finished = records.finish()
    this.log.append(finished, records.rowDelta)
    this.mover?.appended()
    return finished.length > 0
  }

  /**
   * Appends the records complete so far of a transaction too large to hold (unpublished, not
   * its end: recovery drops them unless the rest follows). Returns whether any.
   */
  appendPart(records: TransactionRecords): boolean {
    const { records: part, rowDelta } = records.take()
    this.log.append(part, rowDelta)
    return part.length > 0
  }

  private recordsFor(
    tx: Transaction,
    changes: Array<{ change: Change }>,
  ): TransactionRecords | null {
    // Already in the snapshot, or already in the log (replayed after a restart).
    if (this.visibility && isVisible(this.visibility, tx.xid)) return null
    if (
      this.mover
        ? this.mover.applied(tx)
        : tx.commitLsn <= this.log.appendedOffset.tx
    )
      return null
    return this.mover
      ? this.mover.records(tx, changes)
      : new TransactionRecords(this.view, tx)
  }

  /**
   * Makes the appended records visible at once, and wakes the long-polls soon: after the
   * transactions already received are applied too (wakeSoon), so an answer carries all of them
   * rather than a request per transaction. The busier the engine, the more each answer holds.
   */
  publish(): void {
    this.log.publish()
    if (this.waiters.size > 0) wakeSoon(this)
  }

  /** Wakes every request waiting for a change (wakeSoon's end). */
  wake(): void {
    const waiters = [...this.waiters]
    this.waiters.clear()
    for (const waiter of waiters) waiter.wake()
  }

  /** Requests waiting for a change: the shape's open long-polls. */
  get waitingRequests(): number {
    return this.waiters.size
  }

  /** Woken at the next publish (or fail/close), once; unpark() if it leaves first. */
  park(waiter: Waiter): void {
    this.waiters.add(waiter)
  }

  unpark(waiter: Waiter): void {
    this.waiters.delete(waiter)
  }

  /**
   * Resolves at the next publish (or fail/close), or after the timeout. `due`: when the
   * request should have had its answer, if earlier waits of it came before this one.
   */
  waitForChange(
    timeoutMs: number,
    signal?: WaitSignal,
    due = Date.now() + timeoutMs,
  ): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.waiters.delete(waiter)
        signal?.removeEventListener('abort', done)
        resolve()
      }
      const waiter: Waiter = { wake: done, due }
      const timer = setTimeout(done, timeoutMs)
      signal?.addEventListener('abort', done)
      this.waiters.add(waiter)
    })
  }

  fail(error: Error): void {
    this.failure = error
    this.publish()
  }

  private writeMeta(): void {
    const meta: ShapeMeta = {
      handle: this.handle,
      snapshotBytes: this.snapshotBytes,
      definition: this.definition,
      visibility: this.visibility ?? { xmin: 0n, xmax: 0n, xip: [] },
      columns: this.view.columns,
      schema: this.schema,
      primaryKey: this.view.primaryKey,
      createdAt: this.createdAt,
    }
    const file = join(this.log.dir, 'meta.json')
    const json = JSON.stringify(meta, (_k, v: unknown) =>
      typeof v === 'bigint' ? v.toString() : v,
    )
    writeFileSync(`${file}.tmp`, json, { mode: PRIVATE_FILE })
    renameSync(`${file}.tmp`, file)
  }
}
