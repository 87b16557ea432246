// Shared by the replication integration tests: a database with its own publication and slot,
// a handler that records what it is handed, and readers of the slot's server-side state.
import { randomBytes } from 'node:crypto'
import type pg from 'pg'
import { expect } from 'vitest'
import {
  ensurePublication,
  ensureSlot,
  dropSlotAndPublication,
  replicationNames,
  slotHealth,
  type ReplicationNames,
} from '../../src/engine/replication/slot.ts'
import {
  startReplication,
  type ReplicationStream,
  type StartReplicationOptions,
} from '../../src/engine/replication/stream.ts'
import type {
  Lsn,
  Relation,
  ReplicationHandler,
  Transaction,
} from '../../src/engine/replication/types.ts'
import { createTestDatabase, type TestDatabase } from './database.ts'

export type Source = TestDatabase &
  ReplicationNames & {
    /** Starts a stream on this source's slot; stopped by drop() if still running. */
    stream(
      handler: ReplicationHandler,
      options?: Partial<StartReplicationOptions>,
    ): Promise<ReplicationStream>
  }

/** A fresh database with a publication and a slot; drop() removes all three. */
export async function createSource(): Promise<Source> {
  const database = await createTestDatabase()
  const names = replicationNames(`test_${randomBytes(6).toString('hex')}`)
  await ensurePublication(database.db, names.publication)
  await ensureSlot(database.db, names.slot)
  const streams: ReplicationStream[] = []
  return {
    ...database,
    ...names,
    async stream(handler, options) {
      const stream = await startReplication({
        connectionString: database.url,
        slot: names.slot,
        publication: names.publication,
        startLsn: 0n,
        handler,
        statusIntervalMs: 50,
        ...options,
      })
      streams.push(stream)
      return stream
    },
    async drop() {
      await Promise.all(streams.map((s) => s.stop()))
      await dropSlotAndPublication(database.db, names.slot, names.publication)
      await database.drop()
    },
  }
}

/**
 * Records everything; durable up to `durable`. With `autoFlush` every transaction is durable
 * as soon as it is handed over, and the idle position is confirmed when nothing is pending.
 */
export class Recorder implements ReplicationHandler {
  readonly transactions: Transaction[] = []
  readonly events: string[] = []
  readonly relationChanges: { previous: Relation; next: Relation }[] = []
  durable: Lsn = 0n
  statusRequests = 0
  lastCaughtUp: Lsn = 0n
  /** When set, onTransaction waits for it before returning. */
  gate: Promise<void> | null = null

  constructor(private readonly autoFlush = true) {}

  async onTransaction(tx: Transaction): Promise<void> {
    this.transactions.push(tx)
    this.events.push(`tx ${tx.xid}`)
    await this.gate
    if (this.autoFlush) this.durable = tx.endLsn
  }

  onRelationChanged(previous: Relation, next: Relation): void {
    this.relationChanges.push({ previous, next })
    this.events.push(`relation ${next.name}`)
  }

  flushedLsn(caughtUp: Lsn): Lsn {
    this.statusRequests++
    this.lastCaughtUp = caughtUp
    const delivered = this.transactions.at(-1)?.endLsn ?? 0n
    const pending = this.durable < delivered
    return pending || caughtUp < this.durable ? this.durable : caughtUp
  }

  async received(count: number): Promise<Transaction[]> {
    await expect
      .poll(() => this.transactions.length, { timeout: 4_000 })
      .toBeGreaterThanOrEqual(count)
    return this.transactions
  }
}

export async function confirmedFlush(source: Source): Promise<Lsn> {
  return (await slotHealth(source.db, source.slot)).confirmedFlushLsn ?? 0n
}

/** The end of WAL inserted so far (tests run with synchronous_commit off, so not yet written). */
export async function currentWalLsn(db: pg.Pool): Promise<Lsn> {
  const { rows } = await db.query<{ lsn: string }>(
    `select (pg_current_wal_insert_lsn() - '0/0')::text as lsn`,
  )
  return BigInt(rows[0]?.lsn ?? '0')
}

/** The transaction id a statement ran in, as replication reports it. */
export async function inTransaction(
  db: pg.Pool,
  statements: string[],
): Promise<number> {
  const client = await db.connect()
  try {
    await client.query('begin')
    for (const sql of statements) await client.query(sql)
    const { rows } = await client.query<{ xid: string }>(
      'select pg_current_xact_id()::text as xid',
    )
    await client.query('commit')
    // xid8 carries the epoch in its high half; replication sends the 32-bit xid.
    return Number(BigInt(rows[0]?.xid ?? '0') & 0xffffffffn)
  } finally {
    client.release()
  }
}
