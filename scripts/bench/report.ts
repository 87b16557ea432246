// What a run measured, the targets it is held to, and the one-line JSON form of it.
import type { FanoutReport } from './fanout.ts'
import {
  RATIO_TARGET as SHAPE_COST_RATIO,
  shapeCostJson,
  type ShapeCostReport,
} from './shape-cost.ts'
import type { SnapshotFigures } from './snapshot.ts'
import type { WindowResult } from './window.ts'
import type { LatencyResult } from './workload.ts'

export const TARGETS = {
  latencyP50Ms: 20,
  latencyP99Ms: 100,
  eqChangesPerSec: 10_000,
  likeChangesPerSec: 2_000,
  /** Engine CPU per change at 10,000 team shapes against 1,000. */
  shapeCostRatio: SHAPE_COST_RATIO,
  bytesPerIdleShape: 50 * 1024,
  /** A handful of origin requests per change, not one per client, at 1,000 clients. */
  fanoutOriginPerChange: 5,
}

type LatencyReport = {
  shapes: number
  connectMs: number
  engine: LatencyResult
  baseline: LatencyResult
}

type ThroughputReport = {
  workload: string
  shapes: number
  target: number
  connectMs: number
  engine: WindowResult[]
  baseline: WindowResult[]
}

export type MemoryReport = {
  requested: number
  created: number
  stoppedBy: string | null
  gc: boolean
  rssBefore: number
  rssAfter: number
  heapBefore: number
  heapAfter: number
  fdsPerShape: number | null
}

export type Report = {
  quick: boolean
  seconds: number
  cpus: number
  /** 1-minute load average when the run started and ended: other work on the machine. */
  loadAverage: { start: number; end: number }
  /** Milliseconds of the fixed calibration task on one core (`machine.ts`): lower is faster. */
  calibrationMs: number
  /** Median loopback TCP round trip (`machine.ts`), in microseconds: lower is faster. */
  loopbackUs: number
  /** CPU seconds the engine process used (engine, baseline stream, sampling). */
  engineCpuSeconds: number
  latency: LatencyReport[]
  throughput: ThroughputReport[]
  cpuPerThousandChanges: ShapeCostReport | null
  snapshot: SnapshotFigures | null
  memory: MemoryReport | null
  fanout: FanoutReport[]
  errors: string[]
}

/** Nearest-rank percentile; a timed-out sample counts as infinitely slow. */
export function percentile(result: LatencyResult, p: number): number {
  const values = [
    ...result.samples,
    ...Array<number>(result.timeouts).fill(Infinity),
  ].sort((a, b) => a - b)
  if (values.length === 0) return NaN
  return values[Math.max(0, Math.ceil(p * values.length) - 1)] ?? NaN
}

/** The best processed rate among paced windows the consumer kept up with; null if none. */
export function sustained(windows: WindowResult[]): number | null {
  const kept = windows.filter((w) => w.flat).map((w) => w.processedPerSec)
  return kept.length > 0 ? Math.max(...kept) : null
}

const round = (n: number, digits = 0) =>
  Number.isFinite(n) ? Number(n.toFixed(digits)) : null

function latencyJson(r: LatencyResult) {
  return {
    samples: r.samples.length,
    timeouts: r.timeouts,
    p50Ms: round(percentile(r, 0.5), 2),
    p99Ms: round(percentile(r, 0.99), 2),
  }
}

function windowJson(w: WindowResult) {
  return {
    mode: w.mode,
    offeredPerSec: w.offeredPerSec,
    rows: w.rows,
    seconds: round(w.seconds, 2),
    writtenPerSec: round(w.writtenPerSec),
    changesPerSec: round(w.processedPerSec),
    walBytesPerSec: round(w.walBytesPerSec),
    probeDelayStartMs:
      w.probeDelayStartMs === null ? null : round(w.probeDelayStartMs, 1),
    probeDelayEndMs:
      w.probeDelayEndMs === null ? null : round(w.probeDelayEndMs, 1),
    probeDelayMaxMs: round(w.probeDelayMaxMs ?? NaN, 1),
    probeDelayP50Ms: round(w.probeDelayP50Ms ?? NaN, 1),
    probeDelayP99Ms: round(w.probeDelayP99Ms ?? NaN, 1),
    consumerLagStartBytes: w.consumerLagStart,
    consumerLagEndBytes: w.consumerLagEnd,
    slotLagStartBytes: w.slotLagStart,
    slotLagEndBytes: w.slotLagEnd,
    slotLagMaxBytes: w.slotLagMax,
    drainMs: w.drainMs === null ? null : round(w.drainMs, 1),
    loopUtilization: round(w.loopUtilization, 3),
    cpuMsPerThousand: round(w.cpuMsPerThousand, 1),
    load: {
      loopUtilization: round(w.load.loopUtilization, 3),
      cpuMsPerThousand: round(w.load.cpuMsPerThousand, 1),
    },
    machineBusy: w.machineBusy === null ? null : round(w.machineBusy, 3),
    deliveredPerSec: round(w.deliveredPerSec),
    flat: w.flat,
  }
}

export function toJson(report: Report) {
  const memory = report.memory
  return {
    quick: report.quick,
    seconds: round(report.seconds, 1),
    cpus: report.cpus,
    loadAverage: report.loadAverage,
    calibrationMs: round(report.calibrationMs, 1),
    loopbackUs: round(report.loopbackUs, 1),
    engineCpuSeconds: round(report.engineCpuSeconds, 1),
    targets: TARGETS,
    latency: report.latency.map((l) => ({
      shapes: l.shapes,
      connectMs: round(l.connectMs),
      ...latencyJson(l.engine),
      baseline: latencyJson(l.baseline),
    })),
    throughput: report.throughput.map((t) => ({
      workload: t.workload,
      shapes: t.shapes,
      target: t.target,
      connectMs: round(t.connectMs),
      sustainedPerSec: round(sustained(t.engine) ?? NaN),
      windows: t.engine.map(windowJson),
      baseline: {
        sustainedPerSec: round(sustained(t.baseline) ?? NaN),
        windows: t.baseline.map(windowJson),
      },
    })),
    cpuPerThousandChanges: shapeCostJson(report.cpuPerThousandChanges),
    snapshot: report.snapshot,
    memory: memory && {
      ...memory,
      rssPerShapeBytes: round(
        (memory.rssAfter - memory.rssBefore) / memory.created,
      ),
      heapPerShapeBytes: round(
        (memory.heapAfter - memory.heapBefore) / memory.created,
      ),
      baseline: null,
    },
    fanout: report.fanout.map((f) => ({
      clients: f.clients,
      connectMs: round(f.connectMs),
      originRequestsToConnect: f.originToConnect,
      changes: f.changes,
      ...latencyJson(f.latency),
      originRequestsPerChange: round(f.originPerChange, 2),
      failure: f.failure,
    })),
    errors: report.errors,
  }
}
