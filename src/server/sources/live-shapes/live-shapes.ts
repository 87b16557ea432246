// Keeps `source_shapes` equal to the shapes the engine holds for each source this server runs,
// so the dashboard reads them like everything else it shows (synced, not polled). A source's
// rows are replaced when the runtime starts it (the engine reopens the shapes kept on disk),
// follow the engine as shapes come and go, and are cleared when the source is removed. A
// server that stops leaves them for whoever runs the source next to replace. Counters and
// last reads are written once per interval at most, and only when they changed: a busy shape
// costs one row update per interval, never one per change or per read. Each source's writes
// run one after another. The engine's rotations go to the invalidation log in the same turn
// (invalidation-rows.ts), and per-minute rates are computed here (rates.ts).
import type { ShapeDatabase } from '../../../engine/index.ts'
import type { Db } from '../../platform/db/database.ts'
import type { Logger } from '../../platform/log.ts'
import type { ShapeDeletion } from '../runtime/runtime.ts'
import {
  writeInvalidations,
  type GrownInvalidation,
  type WrittenInvalidation,
} from './invalidation-rows.ts'
import { planShapeWrites, shapeRowOf, type ShapeRow } from './plan.ts'
import { RateWindow } from './rates.ts'
import { clearShapeRows, deleteShapeRow, writeShapeRows } from './rows.ts'

/** How often changed counters and last reads are written: 5 s. */
const LIVE_SHAPES_INTERVAL_MS = 5_000

class SourceShapes {
  private written = new Map<string, ShapeRow>()
  // When each shape was last read before this server (re)started the source: a reopened
  // shape nobody has read since still shows it. Null until the earlier rows are cleared.
  private readsBefore: Map<string, number> | null = null
  private chain: Promise<unknown> = Promise.resolve()
  private scheduled = false
  private updatesDue = false
  private closed = false
  private readonly rates = new RateWindow(Date.now())
  /** The engine's last rotation copied out, and those whose re-read bytes may still grow. */
  private invalidationSeq = 0
  private readonly rereading = new Map<number, WrittenInvalidation>()

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly instanceId: string,
    readonly sourceId: string,
    private readonly database: ShapeDatabase,
  ) {
    this.request(false)
  }

  /** A shape came, got ready or went: written now. `updatesDue`: counters too. */
  request(updatesDue: boolean): void {
    this.updatesDue ||= updatesDue
    if (this.scheduled || this.closed) return
    this.scheduled = true
    void this.run(async () => {
      this.scheduled = false
      const updates = this.updatesDue
      this.updatesDue = false
      await this.flush(updates)
    })
  }

  /**
   * Rotates the shape (its clients get 409 and refetch) and deletes its row: the txid of
   * that delete, or null when neither the engine nor the table knew the handle.
   */
  deleteShape(handle: string): Promise<number | null | undefined> {
    return this.run(async () => {
      const shape = this.database.byHandle(handle)
      if (shape) this.database.rotate(shape, 'deleted')
      const { deleted, txid } = await deleteShapeRow(
        this.db,
        this.sourceId,
        handle,
      )
      this.written.delete(handle)
      return shape || deleted ? txid : null
    })
  }

  /** Stops writing; `clear`: also removes the rows (the source is being removed). */
  async close(clear: boolean): Promise<void> {
    this.closed = true
    await this.chain
    if (clear)
      await clearShapeRows(this.db, this.sourceId).catch((error: Error) =>
        this.warn(error),
      )
  }

  private async flush(updatesDue: boolean): Promise<void> {
    // First the rows an earlier run left (this server before a restart, or another that ran
    // the source); tried again at the next flush if it fails.
    this.readsBefore ??= await clearShapeRows(this.db, this.sourceId)
    await this.flushInvalidations()
    const before = this.readsBefore
    const now = Date.now()
    const facts = this.database.shapeFacts()
    const current = facts.map((shape) =>
      shapeRowOf(
        shape,
        before.get(shape.handle) ?? null,
        this.rates.update(shape, now),
      ),
    )
    this.rates.keepOnly(new Set(facts.map((shape) => shape.handle)))
    const plan = planShapeWrites(this.written, current, updatesDue)
    if (plan.upserts.length === 0 && plan.deletes.length === 0) return
    await writeShapeRows(this.db, this.sourceId, plan)
    for (const handle of plan.deletes) this.written.delete(handle)
    for (const row of plan.upserts) this.written.set(row.handle, row)
  }

  /** The rotations since the last flush, and the re-reads of those before that grew. */
  private async flushInvalidations(): Promise<void> {
    const fresh = this.database.invalidationsAfter(this.invalidationSeq)
    const now = Date.now()
    const grown: GrownInvalidation[] = []
    // Only rotations still inside their re-read window can grow: those from the oldest of them.
    const oldest = this.rereading.size ? Math.min(...this.rereading.keys()) : 0
    const watched = oldest ? this.database.invalidationsAfter(oldest - 1) : []
    for (const entry of watched) {
      const written = this.rereading.get(entry.seq)
      if (
        !written ||
        (written.bytes === entry.bytesReread &&
          written.clients === entry.clients)
      )
        continue
      written.bytes = entry.bytesReread
      written.clients = entry.clients
      grown.push(written)
    }
    if (fresh.length === 0 && grown.length === 0) return
    const written = await writeInvalidations(
      this.db,
      this.sourceId,
      fresh,
      grown,
      this.instanceId,
    )
    for (const [seq, row] of written) this.rereading.set(seq, row)
    for (const [seq, row] of this.rereading)
      if (row.until < now) this.rereading.delete(seq)
    const last = fresh.at(-1)
    if (last) this.invalidationSeq = last.seq
  }

  /** Runs after every step before it; nothing once closed. Its failure is the caller's. */
  private run<T>(step: () => Promise<T>): Promise<T | undefined> {
    const next = this.chain.then(() => (this.closed ? undefined : step()))
    this.chain = next.catch((error: Error) => this.warn(error))
    return next
  }

  private warn(error: Error): void {
    this.log.warn(
      `sources: ${this.sourceId} live shapes not written: ${error.message}`,
    )
  }
}

/** Every source's live-shape rows on this server (one SourceShapes each). */
export class LiveShapes {
  private readonly sources = new Map<string, SourceShapes>()
  private timer: NodeJS.Timeout | null = null

  /** `liveShapesIntervalMs`: how often changed counters are written. */
  constructor(
    private readonly options: {
      db: Db
      log: Logger
      /** Written with the events of the invalidation log. */
      instanceId: string
      liveShapesIntervalMs?: number
    },
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      for (const source of this.sources.values()) source.request(true)
    }, this.options.liveShapesIntervalMs ?? LIVE_SHAPES_INTERVAL_MS)
  }

  /** The runtime started `sourceId` on `database`: its rows are replaced by what it holds. */
  open(sourceId: string, database: ShapeDatabase): void {
    this.sources.set(
      sourceId,
      new SourceShapes(
        this.options.db,
        this.options.log,
        this.options.instanceId,
        sourceId,
        database,
      ),
    )
  }

  /** The engine's onShapesChanged for `sourceId`. */
  changed(sourceId: string): void {
    this.sources.get(sourceId)?.request(false)
  }

  /** not_running: this server holds no shapes of `sourceId` (not run here, or never started). */
  async deleteShape(sourceId: string, handle: string): Promise<ShapeDeletion> {
    const source = this.sources.get(sourceId)
    if (!source) return { kind: 'not_running' }
    const txid = await source.deleteShape(handle)
    // undefined: stopped meanwhile; its shapes are gone with it.
    return txid == null ? { kind: 'unknown_shape' } : { kind: 'deleted', txid }
  }

  /** `clear`: the source is being removed, and so are its rows. */
  async close(sourceId: string, clear: boolean): Promise<void> {
    const source = this.sources.get(sourceId)
    this.sources.delete(sourceId)
    await source?.close(clear)
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    await Promise.all(
      [...this.sources.keys()].map((id) => this.close(id, false)),
    )
  }
}
