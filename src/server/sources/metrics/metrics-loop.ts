// Samples every running source's figures into the control plane at a fixed interval (a minute
// by default): the engine's running totals and the health last measured, made into rates by
// sample.ts and written by rows.ts. Each source's totals at its last sample are kept here; a
// source that starts again here (or on another server) starts its rates afresh. Passes never
// overlap, and a failed write is only a gap in the chart.
import type { Db } from '../../platform/db/database.ts'
import type { Logger } from '../../platform/log.ts'
import type { Running } from '../runtime/running-source.ts'
import { writeMetricPoint } from './rows.ts'
import { samplePoint, type ShapeTotals, type SourceTotals } from './sample.ts'

/** A minute: the charts' finest resolution. */
export const METRICS_INTERVAL_MS = 60_000

type Kept = SourceTotals & { shapeTotals: ShapeTotals; database: object }

export class MetricsLoop {
  private readonly kept = new Map<string, Kept>()
  private sampling: Promise<void> | null = null

  constructor(private readonly options: { db: Db; log: Logger }) {}

  /** One pass over the running sources; a pass under way is shared. */
  sampleAll(entries: Iterable<Running>): Promise<void> {
    this.sampling ??= (async () => {
      const seen = new Set<string>()
      for (const entry of [...entries]) {
        seen.add(entry.id)
        await this.sample(entry).catch((error: Error) =>
          this.options.log.warn(
            `sources: ${entry.id} figures not written: ${error.message}`,
          ),
        )
      }
      for (const id of this.kept.keys()) if (!seen.has(id)) this.kept.delete(id)
    })().finally(() => (this.sampling = null))
    return this.sampling
  }

  /** Waits for a pass under way (the runtime stops its timer first). */
  async stop(): Promise<void> {
    await this.sampling
  }

  private async sample(entry: Running): Promise<void> {
    const database = entry.database
    if (!database) return
    const before = this.kept.get(entry.id)
    // Another engine (the source restarted): its totals started again from zero.
    const same = before?.database === database ? before : null
    const at = Date.now()
    const totals: SourceTotals = {
      at,
      changes: database.changesReceived,
      writes: database.writesEmitted,
      shapes: database.shapeFacts(),
      snapshotMs: database
        .snapshotsAfter(same?.at ?? at)
        .map((snapshot) => snapshot.ms),
      retainedBytes: entry.health.retainedBytes,
      lagBytes: entry.health.lagBytes,
    }
    const { point, shapes, shapeTotals } = samplePoint(same, totals)
    this.kept.set(entry.id, { ...totals, shapeTotals, database })
    if (point)
      await writeMetricPoint(this.options.db, entry.id, at, point, shapes)
  }
}
