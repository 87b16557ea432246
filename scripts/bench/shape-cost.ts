// What a change costs the engine as the shapes it follows grow: the engine's CPU time per
// 1,000 changes at 1,000 and at 10,000 `team_id = $1` shapes, in the same run, at the same
// paced rate. A p99 at 10,000 shapes cannot be shown on a 2-core machine that also runs the
// database and the load; CPU per change can, and other work on the machine disturbs it less.
// Each step has its own table contents: `items` seeded with 10 rows for each of its teams,
// writers inserting for random teams and updating those seeded rows, so every change reaches
// exactly one shape and the changes spread over all of them.
import type pg from 'pg'
import type { ShapeSpec } from './client.ts'
import { seed } from './env.ts'
import type { LoadProcess } from './ipc.ts'
import { runWindow, type Consumer } from './window.ts'
import type { WriterShape } from './workload.ts'

const COST_SHAPES = [1_000, 10_000] as const
/** Well within what the engine keeps up with at 10,000 shapes here, so neither step saturates. */
const OFFERED_PER_SEC = 3_000
const PER_TEAM = 10
const DRAIN_TIMEOUT_MS = 30_000
const FOLLOW_BATCH = 250
const WARM_UP_MS = 3_000
/** The 10,000-shape cost at most this many times the 1,000-shape cost. */
export const RATIO_TARGET = 1.3

type ShapeCostStep = {
  shapes: number
  connectMs: number
  cpuMsPerThousand: number
  /** The engine kept up with the paced rate (window.ts): a saturated step's cost says less. */
  flat: boolean
}

export type ShapeCostReport = {
  offeredPerSec: number
  steps: ShapeCostStep[]
}

/**
 * Starts a follower per team, a batch at a time: the engine admits a few hundred initial
 * requests at once (ELECTRIC_MAX_CONCURRENT_REQUESTS) and answers the rest 503.
 */
async function followInBatches(
  load: LoadProcess,
  shapes: number,
  spec: (team: number) => ShapeSpec,
): Promise<number> {
  let ms = 0
  for (let first = 1; first <= shapes; first += FOLLOW_BATCH) {
    const specs = Array.from(
      { length: Math.min(FOLLOW_BATCH, shapes - first + 1) },
      (_, i) => spec(first + i),
    )
    const follow = await load.call({ kind: 'follow', specs })
    if (follow.failed > 0)
      throw new Error(`${follow.failed} followers failed: ${follow.failure}`)
    ms += follow.ms
  }
  return ms
}

export async function measureShapeCost(ctx: {
  load: LoadProcess
  admin: pg.Client
  consumer: Consumer
  /**
   * Each step's window: long enough to hold a checkpoint (every 30 s, journal.ts), which costs
   * a write and an fdatasync per busy log, as its share of the changes.
   */
  windowMs: number
  writer: WriterShape
  spec: (team: number) => ShapeSpec
  log: (line: string) => void
  /** Wraps each step's window (`--cpu-profile`: a profile per step). */
  profile?: <T>(shapes: number, run: () => Promise<T>) => Promise<T>
}): Promise<ShapeCostReport> {
  const { load, admin } = ctx
  const steps: ShapeCostStep[] = []
  try {
    for (const shapes of COST_SHAPES) {
      ctx.log(`engine: CPU per change at ${shapes} team shapes`)
      await admin.query('truncate items restart identity')
      await seed(admin, 'items', shapes, PER_TEAM, ctx.writer.vocabulary)
      await admin.query('analyze items')
      await load.call({
        kind: 'writer',
        writer: { ...ctx.writer, teams: shapes, updatePool: shapes * PER_TEAM },
      })
      const connectMs = await followInBatches(load, shapes, ctx.spec)
      const measure = (durationMs = ctx.windowMs) =>
        runWindow({
          load,
          admin,
          consumer: ctx.consumer,
          offeredPerSec: OFFERED_PER_SEC,
          maxRows: null,
          durationMs,
          drainTimeoutMs: DRAIN_TIMEOUT_MS,
          name: `cost-${shapes}`,
        })
      // Not measured: the first step would pay for the engine's first changes (code compiled,
      // buffers grown), the second not.
      if (steps.length === 0) await measure(WARM_UP_MS)
      const window = await (ctx.profile?.(shapes, measure) ?? measure())
      steps.push({
        shapes,
        connectMs,
        cpuMsPerThousand: window.cpuMsPerThousand,
        flat: window.flat,
      })
      await load.call({ kind: 'unfollow' })
    }
  } finally {
    await load.call({ kind: 'writer', writer: ctx.writer })
  }
  return { offeredPerSec: OFFERED_PER_SEC, steps }
}

/** `cpuPerThousandChanges` of BENCH_JSON: each step's cost and the 10,000 : 1,000 ratio. */
export function shapeCostJson(report: ShapeCostReport | null) {
  if (!report) return null
  const at = (shapes: number) =>
    report.steps.find((s) => s.shapes === shapes)?.cpuMsPerThousand ?? NaN
  const round = (n: number, digits: number) =>
    Number.isFinite(n) ? Number(n.toFixed(digits)) : null
  const [small, large] = COST_SHAPES
  return {
    shapes1000: round(at(small), 1),
    shapes10000: round(at(large), 1),
    ratio: round(at(large) / at(small), 2),
    offeredPerSec: report.offeredPerSec,
    steps: report.steps.map((s) => ({
      shapes: s.shapes,
      connectMs: Math.round(s.connectMs),
      cpuMsPerThousand: round(s.cpuMsPerThousand, 1),
      flat: s.flat,
    })),
  }
}

/** `--only shape-cost`: each step, the ratio against its target, and the BENCH_JSON line. */
export function printShapeCost(report: ShapeCostReport): void {
  const json = shapeCostJson(report)
  for (const step of json?.steps ?? [])
    console.log(
      `${`engine CPU per 1,000 changes, ${step.shapes} team shapes`.padEnd(50)} ${String(step.cpuMsPerThousand).padStart(8)} ms${step.flat ? '' : ' (fell behind)'}`,
    )
  console.log(
    `${'ratio'.padEnd(50)} ${String(json?.ratio).padStart(8)}    <= ${RATIO_TARGET} ${json?.ratio !== null && (json?.ratio ?? Infinity) <= RATIO_TARGET ? 'ok' : 'MISS'}`,
  )
  console.log(`BENCH_JSON ${JSON.stringify({ cpuPerThousandChanges: json })}`)
}
