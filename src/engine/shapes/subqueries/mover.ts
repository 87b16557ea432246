// A shape with subqueries, transaction by transaction: its records as moves.ts decides them,
// its move-ins, and its resumption after a restart. While a move-in's query runs (or a resumed
// shape reads its subqueries again), the shape's transactions wait in its queue; once
// replication has delivered every transaction that query saw, those are applied against the
// results before (their own moves after), then what the query read, then the rest.
//
// Every change to the applied results is written to applied-log.ts before the records that
// announce it, at their offset, so a restarted engine knows what the clients were told.
import type { Change, Transaction } from '../../replication/types.ts'
import type { LogRecord, ShapeLog } from '../../storage/shape-log.ts'
import type { Offset } from '../../storage/offset.ts'
import { moveInWhere } from '../../where/move-sql.ts'
import {
  moveInRecord,
  snapshotEndMessage,
  TransactionRecords,
  type ShapeView,
} from '../changes.ts'
import type { TableName } from '../definition.ts'
import { isVisible, type Visibility } from '../visibility.ts'
import { TimeSlice } from '../../time-slice.ts'
import { readApplied, writeApplied } from './applied-log.ts'
import type { MoveEvent, MoveIn, SubqueryMoves } from './moves.ts'
import type { MoveInResult, SnapshotPoint } from './queries.ts'

/**
 * Ops below this in a transaction of a shape with subqueries are its move-out events (one per
 * subquery at most); the changes' own ops start here.
 */
const EVENT_OPS = 16
/** Transactions a shape holds while a move-in's query runs; past it, it starts over (409). */
const MOVE_IN_BUFFER = 1_000

export type Waiting = {
  tx: Transaction
  changes: Array<{ change: Change; index: number }>
}

/** What a shape with subqueries asks of its database (database.ts). */
export type MoverHooks = {
  /** Reads the rows a move brings (queries.ts). */
  moveIn(where: { sql: string; params: unknown[] }): Promise<MoveInResult>
  /** Reads the subqueries' rows again (queries.ts). */
  reload(): Promise<SnapshotPoint>
  /** Resolves once replication has delivered every transaction committed below `lsn`. */
  delivered(lsn: bigint): Promise<void>
  /** The database's global LSN: what clients may have been told (`global_last_seen_lsn`). */
  globalLsn(): bigint
  /** The shape cannot go on: its clients start over on a new one. */
  rotate(detail: string): void
  /** Records were appended outside a replicated transaction's turn: publish them. */
  appended(): void
  /** Nothing past `upTo` may be confirmed until release(): what waits is in no log yet. */
  hold(upTo: bigint): void
  release(): void
}

/** The shape as its mover sees it (shape.ts). */
export type MoverHost = {
  readonly log: ShapeLog
  readonly view: ShapeView
  readonly definition: { table: TableName; params: string[] }
  readonly closed: boolean
  /** The shape's queue of waiting transactions, oldest first. */
  readonly pending: Waiting[]
  /** Applies what waits until none is left or one starts a move, yielding as `slice` says. */
  drain(slice: TimeSlice): Promise<void>
}

export class Mover {
  /** A query runs: transactions wait. */
  moving = false
  // What waited is being applied after a move, in time slices: arrivals still queue.
  private draining = false
  hooks: MoverHooks | null = null
  /**
   * Where what a move-in (or a resumption) appends goes: past every position a client may
   * have been told of. A client resumes at `<global lsn>_0` (an SSE up-to-date's
   * global_last_seen_lsn), meaning past every transaction up to it, and the global LSN runs on
   * while the shape's transactions wait; so those, and the move-in's records, go after it.
   */
  private floor = 0n
  /**
   * The commit LSN of the last transaction applied to the log: what a transaction delivered
   * again (after a restart) is compared with. Not the log's last offset, which may be the floor.
   */
  appliedLsn = 0n
  // The transaction whose records are being built went to the floor (its LSN is written down
  // once they are in the log).
  private lifted: Transaction | null = null
  // A move-in (or a reload) decided by the transaction being applied, started once it is in
  // the log.
  private next: MoveIn | 'reload' | null = null

  constructor(
    private readonly host: MoverHost,
    readonly subqueries: SubqueryMoves,
  ) {}

  /** Queues a transaction while moving; true if it did. Too many queued: the shape ends. */
  queue(waiting: Waiting): boolean {
    if (!this.moving && !this.draining) return false
    this.host.pending.push(waiting)
    if (this.host.pending.length > MOVE_IN_BUFFER)
      this.hooks?.rotate('too many changes waited for a move-in')
    return true
  }

  /** The transaction's records: its move-outs first, then its own rows. Null: the shape ends. */
  records(
    tx: Transaction,
    changes: Array<{ change: Change }>,
  ): TransactionRecords | null {
    const step = this.subqueries.transaction(tx, changes)
    if (step.kind === 'rotate') {
      this.hooks?.rotate('a subquery value could not be followed')
      return null
    }
    const records = this.recordsOf(tx)
    this.appliedLsn = tx.commitLsn
    this.lifted = tx.commitLsn <= this.floor ? tx : null
    // Its rows against the results the clients have; what moved is known after the reload.
    if (step.kind === 'reload') {
      this.next = 'reload'
      return records
    }
    step.events.forEach((event, i) =>
      writeApplied(
        this.host.log.dir,
        records.event(event.json, i),
        event.entries,
      ),
    )
    if (step.moveIn) this.next = step.moveIn
    return records
  }

  /** The transaction is in the log: a move-in it decided starts now. */
  appended(): void {
    if (this.lifted) this.noteApplied(this.lifted)
    this.lifted = null
    this.startNext()
  }

  // A transaction's records sit at the floor: its LSN, where the log ends, for a restart.
  private noteApplied(tx: Transaction): void {
    const { log } = this.host
    writeApplied(log.dir, log.appendedOffset, [
      { lsn: tx.commitLsn.toString() },
    ])
  }

  /** Whether the transaction is in the log already (delivered again after a restart). */
  applied(tx: Transaction): boolean {
    return tx.commitLsn <= this.appliedLsn
  }

  private startNext(): boolean {
    const next = this.next
    this.next = null
    if (next === 'reload') void this.reload()
    else if (next) void this.moveIn(next)
    return next !== null
  }

  /** The snapshot is in the log: its results are what the clients were told. */
  snapshotted(): void {
    writeApplied(this.host.log.dir, { tx: -1n, op: 0 }, [
      { full: this.subqueries.appliedTuples() },
    ])
  }

  /**
   * A restarted engine: the applied results as the log's end has them, then the subqueries'
   * rows read again, and whatever changed meanwhile moved as any change would.
   */
  async resume(): Promise<void> {
    const end = this.host.log.appendedOffset
    const entries = readApplied(this.host.log.dir, end)
    this.subqueries.restore(entries)
    let lsn: bigint | null = null
    for (const entry of entries) {
      if ('floor' in entry) this.floor = BigInt(entry.floor)
      if ('lsn' in entry) lsn = BigInt(entry.lsn)
    }
    // The log ends at the floor: its offsets no longer name the last transaction applied.
    this.appliedLsn = end.tx === this.floor && lsn !== null ? lsn : end.tx
    await this.reload()
  }

  /** Every subquery's rows read again; whatever differs from what clients were told moves. */
  private reload(): Promise<void> {
    return this.run(async (hooks) => {
      const point = await hooks.reload()
      return {
        point,
        applySeen: false,
        // Read afresh, any value may differ from what the clients were told.
        block: () => {
          this.subqueries.touchAll()
          return { messages: [], rows: 0 }
        },
      }
    })
  }

  /**
   * A transaction's records at its commit LSN; or, if at or below `floor` (it waited while a
   * move-in ran), at the floor, after what is there.
   */
  // Made once: a closure per transaction and shape would be garbage on the hot path.
  private readonly skip = (change: Change) =>
    this.subqueries.isDependencyOnly(change, this.host.definition.table)

  private recordsOf(tx: Transaction): TransactionRecords {
    const end = this.host.log.appendedOffset
    const lifted = tx.commitLsn <= this.floor
    return new TransactionRecords(this.host.view, tx, {
      at: lifted ? this.floor : tx.commitLsn,
      // Never at op 0 there: `<floor>_0` means past everything at the floor.
      base: lifted ? (end.tx === this.floor ? end.op + 1 : 1) : 0,
      eventOps: EVENT_OPS,
      skip: this.skip,
    })
  }

  private moveIn(move: MoveIn): Promise<void> {
    return this.run(async (hooks) => {
      const where = moveInWhere(
        this.subqueries.plan,
        move.moved,
        move.before,
        move.after,
        this.host.definition.params,
      )
      const result = await hooks.moveIn(where)
      return {
        point: result,
        applySeen: true,
        block: () => {
          this.subqueries.applyMoveIn(move)
          return {
            messages: this.moveInRecords(move, result),
            rows: result.rows.length,
          }
        },
      }
    })
  }

  /**
   * Runs a query while transactions wait, then applies those it saw (`applySeen`: with their
   * subqueries' changes; a reload read those already), then `block`'s records with the moves
   * that follow, then starts the next move or lets the rest apply.
   */
  private async run(
    query: (hooks: MoverHooks) => Promise<{
      point: SnapshotPoint
      applySeen: boolean
      block: () => { messages: Block; rows: number }
    }>,
  ): Promise<void> {
    const hooks = this.hooks
    if (!hooks) return
    this.moving = true
    // What waits is in no log yet: Postgres must keep it, from the log's end on.
    hooks.hold(this.host.log.appendedOffset.tx)
    const slice = new TimeSlice()
    try {
      const { point, applySeen, block } = await query(hooks)
      await hooks.delivered(point.lsn)
      if (this.host.closed) return
      // Past the query's position too: before a restart, clients may have been told of more.
      const past = hooks.globalLsn() > point.lsn ? hooks.globalLsn() : point.lsn
      if (past + 1n > this.floor) {
        this.floor = past + 1n
        writeApplied(this.host.log.dir, { tx: this.floor, op: 0 }, [
          { floor: this.floor.toString() },
        ])
      }
      const last = await this.applySeen(point.visibility, applySeen, slice)
      if (this.host.closed) return
      const { messages, rows } = block()
      const step = this.subqueries.moves(last)
      if (step.kind === 'rotate') {
        hooks.rotate('a subquery value could not be followed')
        return
      }
      const events = step.kind === 'apply' ? step.events : []
      this.appendBlock([...messages, ...events.map(asBlock)], rows)
      if (step.kind === 'reload') this.next = 'reload'
      else if (step.moveIn) this.next = step.moveIn
    } catch {
      this.moving = false
      if (!this.host.closed) hooks.rotate('a move-in failed')
      return
    }
    this.moving = false
    // The next move holds from where the log ends now; else what waits applies (in time
    // slices: transactions arriving meanwhile queue behind it), and the hold ends once it is
    // in the log, unless it started another move.
    if (!this.startNext()) {
      this.draining = true
      try {
        // Until nothing waits, checked where `draining` ends: a transaction can queue after
        // the drain's last look and before this continuation runs (other work's microtasks
        // come first), and one left behind would be stranded: those after it apply directly,
        // and it would later count as applied already, its changes never made.
        do await this.host.drain(slice)
        while (
          this.host.pending.length > 0 &&
          !this.moving &&
          !this.host.closed
        )
      } finally {
        this.draining = false
      }
      if (!this.moving) hooks.release()
    }
    hooks.appended()
  }

  // The waiting transactions the query saw, against the results it was asked for; answers the
  // last of them (null: none).
  private async applySeen(
    visibility: Visibility,
    withSubqueries: boolean,
    slice: TimeSlice,
  ): Promise<Transaction | null> {
    const { pending, log } = this.host
    const unseen = pending.findIndex((p) => !isVisible(visibility, p.tx.xid))
    let last: Transaction | null = null
    for (const { tx, changes } of pending.splice(
      0,
      unseen < 0 ? pending.length : unseen,
    )) {
      if (this.applied(tx)) continue
      last = tx
      this.appliedLsn = tx.commitLsn
      if (withSubqueries) this.subqueries.applyChanges(changes)
      const records = this.recordsOf(tx)
      for (const { change, index } of changes) {
        records.add(change, index)
        if (slice.tick()) {
          await slice.pause()
          if (this.host.closed) return last
        }
      }
      log.append(records.finish(), records.rowDelta)
      this.noteApplied(tx)
    }
    return last
  }

  private moveInRecords(move: MoveIn, result: MoveInResult): Block {
    const out: Block = [asBlock(move.event)]
    for (const row of result.rows)
      out.push({ json: moveInRecord(this.host.view, row) })
    if (result.rows.length > 0)
      out.push({ json: snapshotEndMessage(result.visibility) })
    return out
  }

  // Records at the floor, after what is there; each event's change to the results written
  // first, at its offset.
  private appendBlock(block: Block, rows: number): void {
    if (block.length === 0) return
    const { log } = this.host
    const end = log.appendedOffset
    const tx = this.floor
    let op = end.tx === tx ? end.op + 1 : 1
    const records: LogRecord[] = []
    for (const { json, event } of block) {
      const offset: Offset = { tx, op: op++ }
      if (event) writeApplied(log.dir, offset, event.entries)
      records.push({ offset, json, last: false })
    }
    ;(records[records.length - 1] as LogRecord).last = true
    log.append(records, rows)
  }
}

/** Records of a block, an event's change to the results beside its own. */
type Block = Array<{ json: string; event?: MoveEvent }>

const asBlock = (event: MoveEvent) => ({ json: event.json, event })
