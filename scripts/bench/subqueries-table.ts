// The `--subqueries` figures: their JSON form and the lines printed next to their targets.
import { percentile } from './report.ts'
import { ITEMS_PER_TEAM, type SubqueriesReport } from './subqueries.ts'
import type { WindowResult } from './window.ts'
import type { LatencyResult } from './workload.ts'

/** The targets the figures are printed against (nothing fails on them). */
const TARGETS = { moveP50Ms: 20, cpuRatio: 2 }

const round = (n: number, digits = 1) =>
  Number.isFinite(n) ? Number(n.toFixed(digits)) : null

function latencyJson(r: LatencyResult) {
  return {
    samples: r.samples.length,
    timeouts: r.timeouts,
    // Near or under 0: the client had the move before the writer had its COMMIT's answer.
    min: round(Math.min(...r.samples)),
    p50: round(percentile(r, 0.5)),
    p95: round(percentile(r, 0.95)),
    max: round(percentile(r, 1)),
  }
}

function windowJson(w: WindowResult) {
  return {
    changes: w.rows,
    changesPerSec: round(w.processedPerSec, 0),
    drainMs: w.drainMs === null ? null : round(w.drainMs),
    cpuMsPerThousand: round(w.cpuMsPerThousand),
    loopUtilization: round(w.loopUtilization, 3),
    machineBusy: w.machineBusy === null ? null : round(w.machineBusy, 3),
  }
}

function subqueriesJson(report: SubqueriesReport) {
  const all: LatencyResult = {
    samples: [...report.moves.in.samples, ...report.moves.out.samples],
    timeouts: report.moves.in.timeouts + report.moves.out.timeouts,
  }
  const plain = report.root.plain.cpuMsPerThousand
  const subquery = report.root.subquery.cpuMsPerThousand
  return {
    shapes: report.config.shapes,
    teams: report.config.shapes,
    memberships: report.memberships,
    itemsPerTeam: ITEMS_PER_TEAM,
    // The clients an items update reaches: one plain shape, a subquery shape per member.
    subqueryShapesPerTeam: round(report.memberships / report.config.shapes, 2),
    connectMs: {
      plain: round(report.connectMs.plain, 0),
      subquery: round(report.connectMs.subquery, 0),
    },
    moveLatencyMs: latencyJson(all),
    moveInLatencyMs: latencyJson(report.moves.in),
    moveOutLatencyMs: latencyJson(report.moves.out),
    rootChangeCpuMsPerThousand: {
      plain: round(plain),
      subquery: round(subquery),
      ratio: round(subquery / plain, 2),
    },
    rootWindows: {
      plain: windowJson(report.root.plain),
      subquery: windowJson(report.root.subquery),
    },
    targets: TARGETS,
  }
}

const ms = (n: number | null) => (n === null ? 'timeout' : `${n.toFixed(1)} ms`)

/** The table, each miss spelled out, and the BENCH_JSON line. */
export function printSubqueries(report: SubqueriesReport): void {
  const json = subqueriesJson(report)
  console.log(
    `subquery shapes: ${json.shapes} users in ${json.memberships} memberships of ${json.teams} teams (${ITEMS_PER_TEAM} items each; an items row is in ${json.subqueryShapesPerTeam} subquery shapes, 1 plain one); clients up to date in ${json.connectMs.subquery} ms (plain shapes ${json.connectMs.plain} ms)`,
  )
  for (const [name, l] of [
    ['move-in ', json.moveInLatencyMs],
    ['move-out', json.moveOutLatencyMs],
    ['all     ', json.moveLatencyMs],
  ] as const)
    console.log(
      `  membership change -> client, ${name} (${l.samples} samples${l.timeouts ? `, ${l.timeouts} timeouts` : ''}): min ${ms(l.min)}, p50 ${ms(l.p50)}, p95 ${ms(l.p95)}, max ${ms(l.max)}`,
    )
  const p50 = json.moveLatencyMs.p50
  console.log(
    `  move p50 target <= ${TARGETS.moveP50Ms} ms: ${p50 !== null && p50 <= TARGETS.moveP50Ms ? 'ok' : `MISS: ${ms(p50)}`}`,
  )
  for (const [name, w] of [
    ['team_id = $1', json.rootWindows.plain],
    ['subquery    ', json.rootWindows.subquery],
  ] as const)
    console.log(
      `  items updates, ${name} shapes: ${w.cpuMsPerThousand} engine CPU ms per 1,000 (${w.changes} changes, ${w.changesPerSec}/s, drain ${ms(w.drainMs)}, engine loop busy ${w.loopUtilization})`,
    )
  const { ratio } = json.rootChangeCpuMsPerThousand
  console.log(
    `  CPU ratio subquery / team_id = $1: ${ratio} (target <= ${TARGETS.cpuRatio}): ${ratio !== null && ratio <= TARGETS.cpuRatio ? 'ok' : `MISS: ${ratio}x`}`,
  )
  console.log(`BENCH_JSON ${JSON.stringify({ subqueries: json })}`)
}
