// Applies one replicated transaction to the shapes it concerns, in time slices: each change is
// routed to its candidate shapes, then each shape evaluates and appends its changes, yielding to
// the event loop whenever a slice is spent (shapes/time-slice.ts). Nothing is published here:
// the caller publishes once every shape holds the transaction.
import type { Change, Relation, Row, Transaction } from './replication/types.ts'
import type { Shape } from './shapes/shape.ts'
import { TimeSlice } from './shapes/time-slice.ts'

type Truncate = Extract<Change, { kind: 'truncate' }>

/** What the transaction is applied to; its shapes may change while the work yields. */
export interface TransactionTarget {
  /** The shapes of the relation that may hold any of the rows (old and new of an update). */
  candidates(relation: Relation, rows: Array<Row | null>): Set<Shape>
  truncate(change: Truncate): void
  /** Still registered and open, and there when the transaction started. */
  isLive(shape: Shape): boolean
  /** Throws when the engine is stopping: the transaction is abandoned, never confirmed. */
  checkRunning(): void
}

/** Applies the transaction; answers the shapes, still live, that appended records. */
export async function applyTransaction(
  tx: Transaction,
  target: TransactionTarget,
  slice = new TimeSlice(),
): Promise<Shape[]> {
  const pause = async () => {
    await slice.pause()
    target.checkRunning()
  }
  const perShape = new Map<Shape, Array<{ change: Change; index: number }>>()
  for (let index = 0; index < tx.changes.length; index++) {
    const change = tx.changes[index] as Change
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
      list.push({ change, index })
    }
    if (slice.tick(1 + candidates.size)) await pause()
  }
  const touched: Shape[] = []
  for (const [shape, changes] of perShape) {
    if (!target.isLive(shape)) continue
    const records = shape.begin(tx, changes)
    if (!records) continue
    let live = true
    for (const { change, index } of changes) {
      records.add(change, index)
      if (slice.tick()) {
        await pause()
        // Rotated, deleted or closed meanwhile: its log is gone, its clients start over.
        if (!(live = target.isLive(shape))) break
      }
    }
    if (live && shape.append(records)) touched.push(shape)
  }
  // A shape that appended may have been rotated while a later one yielded.
  return touched.filter((shape) => target.isLive(shape))
}
