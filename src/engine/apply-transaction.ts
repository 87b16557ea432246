// Applies one replicated transaction to the shapes it concerns, in time slices: each change is
// routed to its candidate shapes, then each shape evaluates and appends its changes, yielding to
// the event loop whenever a slice is spent (time-slice.ts). Nothing is published here:
// the caller publishes once every shape holds the transaction.
//
// A spilled transaction (replication/spill.ts) is read back and applied chunk by chunk: each
// shape's records of a chunk are appended to its log at once, unpublished (all but the newest,
// which may turn out to be the shape's last of the transaction), so neither the changes nor the
// records of a transaction of millions of rows are ever all in memory.
import type { Change, Relation, Row, Transaction } from './replication/types.ts'
import type { TransactionRecords } from './shapes/changes.ts'
import type { Shape } from './shapes/shape.ts'
import { TimeSlice } from './time-slice.ts'

type Truncate = Extract<Change, { kind: 'truncate' }>

/** Changes of a spilled transaction read back at a time. */
const SPILL_CHUNK_CHANGES = 2_000

/** What the transaction is applied to; its shapes may change while the work yields. */
export interface TransactionTarget {
  /**
   * Runs before a relation's first change is routed when it must look the relation up first
   * (a partition it has not seen: shapes/partitions.ts); null when it need not.
   */
  learn(relation: Relation): Promise<void> | null
  /** The shapes of the relation that may hold any of the rows (old and new of an update). */
  candidates(relation: Relation, rows: Array<Row | null>): Set<Shape>
  truncate(change: Truncate): void
  /** Still registered and open, and there when the transaction started. */
  isLive(shape: Shape): boolean
  /** Throws when the engine is stopping: the transaction is abandoned, never confirmed. */
  checkRunning(): void
  /**
   * A shape that cannot take this transaction: one still taking its snapshot when a spilled
   * transaction reaches it (it would hold every change in memory until then), or one left
   * with part of a transaction that failed. Rotated: its clients start over.
   */
  drop(shape: Shape): void
}

type Routed = Array<{ change: Change; index: number }>

/** Applies the transaction; answers the shapes, still live, that appended records. */
export async function applyTransaction(
  tx: Transaction,
  target: TransactionTarget,
  slice = new TimeSlice(),
): Promise<Shape[]> {
  if (!tx.spilled) {
    const perShape = await route(tx.changes, 0, target, slice)
    const touched: Shape[] = []
    for (const [shape, changes] of perShape) {
      if (!target.isLive(shape)) continue
      const records = shape.begin(tx, changes)
      if (!records) continue
      if (!(await evaluate(records, changes, shape, target, slice))) continue
      if (shape.append(records)) touched.push(shape)
    }
    // A shape that appended may have been rotated while a later one yielded.
    return touched.filter((shape) => target.isLive(shape))
  }
  return applySpilled(tx, target, slice)
}

async function applySpilled(
  tx: Transaction,
  target: TransactionTarget,
  slice: TimeSlice,
): Promise<Shape[]> {
  // Per shape: its records so far, or null once it holds the transaction already.
  const open = new Map<Shape, TransactionRecords | null>()
  // Shapes with part of the transaction in their log.
  const parted = new Set<Shape>()
  let index = 0
  try {
    for await (const chunk of tx.spilled?.chunks(SPILL_CHUNK_CHANGES) ?? []) {
      target.checkRunning()
      const perShape = await route(chunk, index, target, slice)
      index += chunk.length
      for (const [shape, changes] of perShape) {
        if (!target.isLive(shape)) continue
        let records = open.get(shape)
        if (records === undefined) {
          // Not ready, or with subqueries (whose moves need the whole transaction at once).
          if (!shape.ready || shape.mover) {
            target.drop(shape)
            continue
          }
          records = shape.begin(tx, changes)
          open.set(shape, records)
        }
        if (!records) continue
        if (!(await evaluate(records, changes, shape, target, slice))) continue
        if (shape.appendPart(records)) parted.add(shape)
        await shape.log.writesCaughtUp()
      }
    }
    const touched: Shape[] = []
    for (const [shape, records] of open)
      if (records && target.isLive(shape) && shape.append(records))
        touched.push(shape)
    return touched
  } catch (error) {
    for (const shape of parted) if (target.isLive(shape)) target.drop(shape)
    throw error
  }
}

/** Each change's candidate shapes, with the change's index in the transaction. */
async function route(
  changes: Change[],
  firstIndex: number,
  target: TransactionTarget,
  slice: TimeSlice,
): Promise<Map<Shape, Routed>> {
  const perShape = new Map<Shape, Routed>()
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i] as Change
    for (const relation of change.kind === 'truncate'
      ? change.relations
      : [change.relation]) {
      const learning = target.learn(relation)
      if (learning) await learning
    }
    if (change.kind === 'truncate') {
      target.truncate(change)
      continue
    }
    const rows: Array<Row | null> =
      change.kind === 'insert'
        ? [change.newRow]
        : change.kind === 'delete'
          ? [change.oldRow]
          : [change.oldRow, change.newRow]
    const candidates = target.candidates(change.relation, rows)
    for (const shape of candidates) {
      let list = perShape.get(shape)
      if (!list) perShape.set(shape, (list = []))
      list.push({ change, index: firstIndex + i })
    }
    if (slice.tick(1 + candidates.size)) {
      await slice.pause()
      target.checkRunning()
    }
  }
  return perShape
}

/** Adds the changes to the records; false when the shape ended meanwhile. */
async function evaluate(
  records: TransactionRecords,
  changes: Routed,
  shape: Shape,
  target: TransactionTarget,
  slice: TimeSlice,
): Promise<boolean> {
  for (const { change, index } of changes) {
    records.add(change, index)
    if (slice.tick()) {
      await slice.pause()
      target.checkRunning()
      // Rotated, deleted or closed meanwhile: its log is gone, its clients start over.
      if (!target.isLive(shape)) return false
    }
  }
  return true
}
