// What the replication core hands to the rest of the engine: decoded, committed transactions.
// Values are Postgres text output (the pgoutput text format), SQL NULL as null.
import type { Lsn } from '../pg/lsn.ts'
import type { Relation } from '../pg/pgoutput.ts'

// Named here too: they are part of what replication hands on (Postgres's own, decoded in pg/).
export type { Lsn, Relation }

export type Row = Record<string, string | null>

export type Change =
  | { kind: 'insert'; relation: Relation; newRow: Row }
  | {
      kind: 'update'
      relation: Relation
      /** The old row when the table's replica identity sends it (FULL: always). */
      oldRow: Row | null
      /**
       * Unchanged TOASTed values are filled in from oldRow when it is known; when it is not
       * (replica identity other than FULL), such a column is absent from newRow.
       */
      newRow: Row
    }
  /** oldRow is the whole row with REPLICA IDENTITY FULL, else only the key columns. */
  | { kind: 'delete'; relation: Relation; oldRow: Row }
  | { kind: 'truncate'; relations: Relation[] }

export type Transaction = {
  xid: number
  /** LSN of the commit record: the transaction's position in shape offsets. */
  commitLsn: Lsn
  /** End of the commit record: what to confirm once the transaction is durably stored. */
  endLsn: Lsn
  commitTime: Date
  /** Every change, in order; empty when the transaction was spilled to disk. */
  changes: Change[]
  /** A transaction past the spill limit (spill.ts): its changes are read back from a file. */
  spilled?: SpilledChanges
}

/** A spilled transaction's changes, read back in order. */
export type SpilledChanges = {
  readonly path: string
  readonly count: number
  /** The changes in order, at most `size` at a time. */
  chunks(size: number): AsyncGenerator<Change[]>
  remove(): Promise<void>
}

export interface ReplicationHandler {
  /**
   * Called once per committed transaction, in commit order; the stream waits for it before
   * delivering the next. Transactions with no published change are not delivered.
   */
  onTransaction(tx: Transaction): Promise<void>
  /**
   * A relation whose columns (or name, or replica identity) differ from what was seen before
   * under the same id. Called before the transaction that first uses the new shape, after
   * every earlier transaction was delivered.
   */
  onRelationChanged?(previous: Relation, next: Relation): void
  /**
   * Every transaction committed below `lsn` has been handed to onTransaction and its promise
   * resolved (the `caughtUpLsn` of flushedLsn, as soon as it grows).
   */
  onCaughtUp?(lsn: bigint): void
  /**
   * The highest LSN that may be confirmed to Postgres (everything up to it is durable). The
   * stream asks at every status update and confirms exactly the answer, never more.
   *
   * `caughtUpLsn` lets an idle slot advance: every transaction committed below it has already
   * been handed to onTransaction and its promise resolved (0n until known). It grows with each
   * delivered transaction's endLsn and with the server's WAL end from keepalives received
   * between transactions, which moves on while nothing in this database changes. A handler
   * that has nothing pending (all it was handed is durable) may return it:
   *
   *   flushedLsn: (caughtUp) => (durable >= delivered ? max(durable, caughtUp) : durable)
   *
   * Ignoring it is safe but keeps the slot at the last durable transaction, so WAL of other
   * activity piles up on the server.
   */
  flushedLsn(caughtUpLsn: Lsn): Lsn
}
