// The baseline: the replication core alone (pgoutput decode, no shapes) on its own slot and
// publication, with a handler that only counts changes (and reports benchmark markers).
import type pg from 'pg'
import { SESSION_OPTIONS } from '../../src/engine/database-config.ts'
import {
  addTableToPublication,
  dropSlotAndPublication,
  ensurePublication,
  ensureSlot,
} from '../../src/engine/replication/slot.ts'
import {
  startReplication,
  type ReplicationStream,
} from '../../src/engine/replication/stream.ts'
import type {
  ReplicationHandler,
  Transaction,
} from '../../src/engine/replication/types.ts'
import type { Consumer } from './window.ts'
import { isMarker, now } from './workload.ts'

const BASELINE_NAME = 'sluice_bench_baseline'

export class CountingHandler implements ReplicationHandler {
  changes = 0
  lastCommitLsn = 0n
  /** Changes per table name. */
  readonly perTable = new Map<string, number>()

  constructor(
    private readonly onMarker: (marker: string, at: number) => void,
  ) {}

  async onTransaction(tx: Transaction): Promise<void> {
    this.changes += tx.changes.length
    this.lastCommitLsn = tx.commitLsn
    const at = now()
    for (const change of tx.changes) {
      if (change.kind === 'truncate') continue
      const table = change.relation.name
      this.perTable.set(table, (this.perTable.get(table) ?? 0) + 1)
      const value = change.kind === 'insert' ? change.newRow.body : null
      if (isMarker(value)) this.onMarker(value ?? '', at)
    }
  }

  flushedLsn(caughtUp: bigint): bigint {
    return caughtUp
  }
}

export class Baseline implements Consumer {
  readonly slot = BASELINE_NAME
  readonly handler: CountingHandler
  private stream: ReplicationStream | null = null

  constructor(
    private readonly admin: pg.Client,
    private readonly url: string,
    onMarker: (marker: string, at: number) => void,
  ) {
    this.handler = new CountingHandler(onMarker)
  }

  position(): bigint {
    return this.handler.lastCommitLsn
  }

  /** Publication (tables with REPLICA IDENTITY FULL, as the engine sets them) and slot. */
  async create(tables: string[]): Promise<void> {
    await ensurePublication(this.admin, BASELINE_NAME)
    for (const table of tables)
      await addTableToPublication(this.admin, BASELINE_NAME, 'public', table)
    await ensureSlot(this.admin, BASELINE_NAME)
  }

  async start(): Promise<void> {
    this.stream = await startReplication({
      connectionString: this.url,
      slot: BASELINE_NAME,
      publication: BASELINE_NAME,
      startLsn: 0n,
      handler: this.handler,
      sessionOptions: SESSION_OPTIONS,
    })
    this.stream.done.catch(() => {})
  }

  async stop(): Promise<void> {
    await this.stream?.stop()
    this.stream = null
  }

  async drop(): Promise<void> {
    await this.stop()
    await dropSlotAndPublication(this.admin, BASELINE_NAME, BASELINE_NAME)
  }
}
