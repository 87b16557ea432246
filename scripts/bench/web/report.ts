// What a run measured, the targets it is held to, and the one-line JSON form of it.
import type { ClicksResult } from './clicks.ts'
import type { ExplorerResult } from './explorer.ts'
import type { LatencyResult } from './latency.ts'
import type { EntrySizes, PrecacheSize } from './sizes.ts'

export const TARGETS = {
  entryGzipBytes: 150 * 1024,
  firstVisitMedianMs: 1_500,
  repeatVisitMedianMs: 700,
  commitToScreenP50Ms: 30,
  commitToScreenP99Ms: 60,
  // The shape explorer.
  explorerClickToRowsMedianMs: 500,
  commitToGridP50Ms: 100,
  commitToGridP99Ms: 300,
  // Clicks while the live syncs run.
  clickQueuedP99Ms: 50,
  clickAnswerP50Ms: 150,
  clickAnswerP99Ms: 400,
  clickScreenP50Ms: 250,
  liveRequestsMost: 4,
}

export type Report = {
  seconds: number
  cpus: number
  /** 1-minute load average when the run started and ended: other work on the machine. */
  loadAverage: { start: number; end: number }
  sizes: EntrySizes | null
  precache: PrecacheSize | null
  /** Sign-in to the card in the DOM, one per fresh profile (Infinity: never shown). */
  firstVisits: number[]
  /** Navigation start to the card link in the DOM, per visit (Infinity: never shown). */
  online: number[]
  offline: number[]
  commitToScreen: LatencyResult | null
  /** The same with the browser's HTTP cache bypassed for shape requests: a diagnostic. */
  commitToScreenUncached: LatencyResult | null
  /** The shape explorer: a table click to its rows, and a source row's commit to the grid. */
  explorer: ExplorerResult | null
  /** Renames, clears of cache and creates with 3 teams and 20 sources, in 1 tab and in 3. */
  clicks: ClicksResult[]
  /** Uncaught errors in the pages: the app misbehaving while it was measured. */
  pageErrors: string[]
  errors: string[]
}

/** Nearest-rank percentile; NaN for no values. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? NaN
}

/** Every change made, a timed-out one counting as infinitely slow. */
export const latencyValues = (r: LatencyResult) => [
  ...r.samples,
  ...Array<number>(r.timeouts).fill(Infinity),
]

const round = (n: number) => (Number.isFinite(n) ? Number(n.toFixed(1)) : null)

function visitsJson(times: number[]) {
  return {
    visits: times.length,
    medianMs: round(percentile(times, 0.5)),
    p90Ms: round(percentile(times, 0.9)),
    timesMs: times.map(round),
  }
}

function latencyJson(r: LatencyResult | null) {
  if (!r) return null
  const values = latencyValues(r)
  return {
    requested: r.requested,
    samples: values.length,
    timeouts: r.timeouts,
    stoppedBy: r.stoppedBy,
    p50Ms: round(percentile(values, 0.5)),
    p99Ms: round(percentile(values, 0.99)),
    maxMs: round(percentile(values, 1)),
  }
}

export function toJson(r: Report) {
  return {
    seconds: round(r.seconds),
    cpus: r.cpus,
    loadAverage: r.loadAverage,
    targets: TARGETS,
    sizes: r.sizes,
    precache: r.precache,
    firstVisit: visitsJson(r.firstVisits),
    online: visitsJson(r.online),
    offline: visitsJson(r.offline),
    commitToScreen: latencyJson(r.commitToScreen),
    commitToScreenUncached: latencyJson(r.commitToScreenUncached),
    explorerClickToRows: r.explorer && visitsJson(r.explorer.clickToRows),
    commitToGrid: latencyJson(r.explorer?.commitToGrid ?? null),
    clicks: r.clicks.map((c) => ({
      tabs: c.tabs,
      actions: c.actions.map((a) => ({
        action: a.action,
        clicks: a.answerMs.length,
        timeouts: a.timeouts,
        queuedP50Ms: round(percentile(a.queuedMs, 0.5)),
        queuedP99Ms: round(percentile(a.queuedMs, 0.99)),
        answerP50Ms: round(percentile(a.answerMs, 0.5)),
        answerP99Ms: round(percentile(a.answerMs, 0.99)),
        screenP50Ms: round(percentile(a.screenMs, 0.5)),
        screenP99Ms: round(percentile(a.screenMs, 0.99)),
      })),
      liveMost: c.liveMost,
      liveMostSampled: c.liveMostSampled,
      watches: c.watches,
      liveSent: c.liveSent,
    })),
    pageErrors: r.pageErrors,
    errors: r.errors,
  }
}
