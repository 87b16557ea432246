// The readable form of a run: every engine figure next to the raw-decode baseline of the same
// workload and its target, then each miss spelled out.
import {
  percentile,
  sustained,
  TARGETS,
  toJson,
  type Report,
} from './report.ts'
import type { WindowResult } from './window.ts'
import { SNAPSHOT_TARGETS } from './snapshot.ts'

const int = (n: number | null) =>
  n === null || !Number.isFinite(n)
    ? '-'
    : Math.round(n).toLocaleString('en-US')
const ms = (n: number) =>
  Number.isFinite(n) ? `${n.toFixed(1)} ms` : 'timeout'
const pct = (n: number | null) =>
  n === null ? 'n/a' : `${(n * 100).toFixed(0)}%`
const delay = (n: number | null) => (n === null ? 'none' : ms(n))
const kib = (n: number | null) =>
  n === null
    ? '-'
    : n < 1024 * 1024
      ? `${(n / 1024).toFixed(0)} KiB`
      : `${(n / 1024 / 1024).toFixed(1)} MiB`

const LEGEND = [
  'Baseline: the replication core on its own slot, handler only counting changes; same writes.',
  'changes/s: rows written / (write time + drain). Paced windows offer 110% of the target (or --offer).',
  'probe: a row committed every 50 ms during a window, timed commit → follower (engine) or',
  '  → handler (baseline); flat = probe delay grew ≤ 250 ms and drain ≤ 1 s.',
  'slot lag: pg_current_wal_lsn - confirmed_flush_lsn; it moves only at status updates.',
]

type Row = {
  label: string
  engine: string
  baseline: string
  target: string
  /** true: met, false: missed, null: informational. */
  ok: boolean | null
}

function rows(report: Report): Row[] {
  const out: Row[] = []
  for (const l of report.latency) {
    for (const [name, p, target] of [
      ['p50', 0.5, TARGETS.latencyP50Ms],
      ['p99', 0.99, TARGETS.latencyP99Ms],
    ] as const) {
      const value = percentile(l.engine, p)
      out.push({
        label: `latency ${name}, ${l.shapes} shape${l.shapes === 1 ? '' : 's'} (${l.engine.samples.length + l.engine.timeouts} samples)`,
        engine:
          ms(value) +
          (l.engine.timeouts ? ` (${l.engine.timeouts} timeouts)` : ''),
        baseline: ms(percentile(l.baseline, p)),
        target: `≤ ${target} ms`,
        ok: value <= target,
      })
    }
  }
  for (const t of report.throughput) {
    t.engine.forEach((w, i) => {
      const b = t.baseline[i]
      out.push({
        label:
          w.offeredPerSec === null
            ? `catch-up changes/s, burst of ${int(w.rows)} changes`
            : `changes/s, ${t.shapes} ${t.workload} shapes, paced ${int(w.offeredPerSec)}/s`,
        engine: `${int(w.processedPerSec)} (written ${int(w.writtenPerSec)})`,
        baseline: b
          ? `${int(b.processedPerSec)} (written ${int(b.writtenPerSec)})`
          : '-',
        target: '',
        ok: null,
      })
      const probe = (x: WindowResult) =>
        x.mode === 'burst'
          ? `max ${delay(x.probeDelayMaxMs)}, drain ${delay(x.drainMs)}`
          : `${delay(x.probeDelayStartMs)} → ${delay(x.probeDelayEndMs)}, drain ${delay(x.drainMs)}${x.flat ? '' : ' (grew)'}`
      out.push({
        label:
          w.mode === 'burst'
            ? '  probe commit→consumer max, drain'
            : '  probe commit→consumer start → end, drain',
        engine: probe(w),
        baseline: b ? probe(b) : '-',
        target: '',
        ok: null,
      })
      if (w.mode === 'paced')
        out.push({
          label: '  probe commit→consumer p50 / p99',
          engine: `${delay(w.probeDelayP50Ms)} / ${delay(w.probeDelayP99Ms)}`,
          baseline: b
            ? `${delay(b.probeDelayP50Ms)} / ${delay(b.probeDelayP99Ms)}`
            : '-',
          target:
            t.workload === 'team_id = $1'
              ? `p99 ≤ ${TARGETS.latencyP99Ms} ms`
              : '',
          ok:
            t.workload === 'team_id = $1'
              ? (w.probeDelayP99Ms ?? Infinity) <= TARGETS.latencyP99Ms
              : null,
        })
      out.push({
        label: '  load process (writers, followers) loop busy, CPU ms/1k',
        engine: `${(w.load.loopUtilization * 100).toFixed(0)}%, ${w.load.cpuMsPerThousand.toFixed(0)}`,
        baseline: b
          ? `${(b.load.loopUtilization * 100).toFixed(0)}%, ${b.load.cpuMsPerThousand.toFixed(0)}`
          : '-',
        target: '',
        ok: null,
      })
      out.push({
        label: '  whole machine: CPUs busy (all processes)',
        engine: pct(w.machineBusy),
        baseline: b ? pct(b.machineBusy) : '-',
        target: '',
        ok: null,
      })
      out.push({
        label: '  slot lag start → end (max)',
        engine: `${kib(w.slotLagStart)} → ${kib(w.slotLagEnd)} (${kib(w.slotLagMax)})`,
        baseline: b
          ? `${kib(b.slotLagStart)} → ${kib(b.slotLagEnd)} (${kib(b.slotLagMax)})`
          : '-',
        target: '',
        ok: null,
      })
      out.push({
        label:
          '  engine-process loop busy, CPU ms/1k changes, msgs delivered/s',
        engine: `${(w.loopUtilization * 100).toFixed(0)}%, ${w.cpuMsPerThousand.toFixed(0)}, ${int(w.deliveredPerSec)}`,
        baseline: b
          ? `${(b.loopUtilization * 100).toFixed(0)}%, ${b.cpuMsPerThousand.toFixed(0)}, -`
          : '-',
        target: '',
        ok: null,
      })
    })
    const s = sustained(t.engine)
    const sb = sustained(t.baseline)
    const paced = (x: WindowResult[]) => {
      const w = x.find((y) => y.mode === 'paced')
      return `fell behind: ${int(w?.processedPerSec ?? null)}/s of ${int(w?.offeredPerSec ?? null)}/s offered`
    }
    out.push({
      label: `sustained changes/s, ${t.shapes} ${t.workload} shapes, lag flat`,
      engine: s === null ? paced(t.engine) : int(s),
      baseline: sb === null ? paced(t.baseline) : int(sb),
      target: `≥ ${int(t.target)}/s`,
      ok: s !== null && s >= t.target,
    })
  }
  const cost = report.cpuPerThousandChanges
  if (cost) {
    for (const step of cost.steps)
      out.push({
        label: `engine CPU per 1,000 changes, ${int(step.shapes)} team shapes${step.flat ? '' : ' (fell behind)'}`,
        engine: `${step.cpuMsPerThousand.toFixed(1)} ms`,
        baseline: 'n/a',
        target: '',
        ok: null,
      })
    const [small, large] = cost.steps
    if (small && large) {
      const ratio = large.cpuMsPerThousand / small.cpuMsPerThousand
      out.push({
        label: `  ${int(large.shapes)} : ${int(small.shapes)} shapes, at ${int(cost.offeredPerSec)} changes/s`,
        engine: ratio.toFixed(2),
        baseline: 'n/a',
        target: `≤ ${TARGETS.shapeCostRatio}`,
        ok: ratio <= TARGETS.shapeCostRatio,
      })
    }
  }
  const snap = report.snapshot
  if (snap) {
    out.push({
      label: `snapshot rows/s, ${int(snap.rows)} rows to one official client`,
      engine: int(snap.rowsPerSec),
      baseline: `${int(snap.floorRowsPerSec)} (COPY to Node)`,
      target: `ratio ≥ ${SNAPSHOT_TARGETS.ratio}`,
      ok: snap.ratio >= SNAPSHOT_TARGETS.ratio,
    })
    out.push({
      label: '  first rows at the client',
      engine: ms(snap.firstRowsMs ?? NaN),
      baseline: 'n/a',
      target: `≤ ${SNAPSHOT_TARGETS.firstRowsMs} ms`,
      ok:
        snap.firstRowsMs !== null &&
        snap.firstRowsMs <= SNAPSHOT_TARGETS.firstRowsMs,
    })
    out.push({
      label: '  engine RSS growth meanwhile',
      engine: `${snap.rssGrowthMb} MB`,
      baseline: 'n/a',
      target: `≤ ${SNAPSHOT_TARGETS.rssGrowthMb} MB`,
      ok: snap.rssGrowthMb <= SNAPSHOT_TARGETS.rssGrowthMb,
    })
    out.push({
      label: `  snapshot queries: ${snap.concurrentClients} clients at once, ${snap.joining.clients} joining`,
      engine: `${snap.snapshotQueries}, ${snap.joining.snapshotQueries}`,
      baseline: 'n/a',
      target: '1, 0',
      ok: snap.snapshotQueries === 1 && snap.joining.snapshotQueries === 0,
    })
    for (const failure of snap.failures)
      out.push({
        label: '  snapshot failed',
        engine: failure,
        baseline: '',
        target: '',
        ok: false,
      })
  }
  const mem = report.memory
  if (mem) {
    const rss = (mem.rssAfter - mem.rssBefore) / mem.created
    const heap = (mem.heapAfter - mem.heapBefore) / mem.created
    const at = `${int(mem.created)} idle shapes${mem.created < mem.requested ? ` of ${int(mem.requested)}` : ''}`
    out.push({
      label: `RSS per idle shape at ${at}${mem.gc ? '' : ' (no GC)'}`,
      engine: `${(rss / 1024).toFixed(1)} KiB`,
      baseline: 'n/a (no shapes)',
      target: `≤ ${TARGETS.bytesPerIdleShape / 1024} KiB`,
      ok: rss <= TARGETS.bytesPerIdleShape && mem.created === mem.requested,
    })
    out.push({
      label: '  heap used per idle shape, fds per shape',
      engine: `${(heap / 1024).toFixed(1)} KiB, ${mem.fdsPerShape?.toFixed(2) ?? '-'} fds`,
      baseline: 'n/a',
      target: '',
      ok: null,
    })
  }
  for (const f of report.fanout) {
    const at = `${int(f.clients)} clients`
    out.push({
      label: `fan-out via nginx, ${at}: connect (origin requests)`,
      engine: f.failure
        ? `failed: ${f.failure}`
        : `${int(f.connectMs)} ms (${int(f.originToConnect)})`,
      baseline: 'n/a',
      target: '',
      ok: f.failure ? false : null,
    })
    for (const [name, p] of [
      ['p50', 0.5],
      ['p99', 0.99],
    ] as const)
      out.push({
        label: `  commit-to-client ${name} (${int(f.latency.samples.length + f.latency.timeouts)} deliveries)`,
        engine:
          ms(percentile(f.latency, p)) +
          (f.latency.timeouts ? ` (${int(f.latency.timeouts)} timeouts)` : ''),
        baseline: 'n/a',
        target: '',
        ok: null,
      })
    out.push({
      label: `  origin requests per change (${f.changes} changes)`,
      engine: Number.isFinite(f.originPerChange)
        ? f.originPerChange.toFixed(2)
        : '-',
      baseline: `${int(f.clients)} without a cache`,
      // The target is for 1,000 clients; at 10,000 the figure is reported as measured.
      target: f.clients <= 1_000 ? `≤ ${TARGETS.fanoutOriginPerChange}` : '',
      ok:
        f.clients <= 1_000
          ? f.originPerChange <= TARGETS.fanoutOriginPerChange
          : null,
    })
  }
  return out
}

export function printReport(report: Report): void {
  console.log(`BENCH_JSON ${JSON.stringify(toJson(report))}`)
  const table = rows(report)
  const head: Row = {
    label: 'measurement',
    engine: 'engine',
    baseline: 'baseline (raw pgoutput)',
    target: 'target',
    ok: null,
  }
  const all = [head, ...table]
  const width = (key: 'label' | 'engine' | 'baseline' | 'target') =>
    Math.max(...all.map((r) => r[key].length))
  const [wl, we, wb, wt] = [
    width('label'),
    width('engine'),
    width('baseline'),
    width('target'),
  ]
  const line = (r: Row, verdict: string) =>
    `${r.label.padEnd(wl)}  ${r.engine.padEnd(we)}  ${r.baseline.padEnd(wb)}  ${r.target.padEnd(wt)}  ${verdict}`.trimEnd()
  console.log('')
  console.log(line(head, 'result'))
  console.log('-'.repeat(wl + we + wb + wt + 14))
  for (const r of table)
    console.log(line(r, r.ok === null ? '' : r.ok ? 'ok' : 'MISS'))
  const misses = table.filter((r) => r.ok === false)
  console.log('')
  for (const note of LEGEND) console.log(note)
  console.log('')
  if (misses.length === 0) console.log('All targets met.')
  for (const m of misses)
    console.log(`MISS: ${m.label.trim()}: ${m.engine} (target ${m.target})`)
  if (report.memory?.stoppedBy)
    console.log(
      `Memory phase stopped at ${int(report.memory.created)} of ${int(report.memory.requested)} shapes: ${report.memory.stoppedBy}`,
    )
  const busy = report.loadAverage.start > report.cpus / 2
  console.log(
    `Load average ${report.loadAverage.start.toFixed(2)} at start, ${report.loadAverage.end.toFixed(2)} at end on ${report.cpus} CPUs${busy ? ': other work was running, figures may read low' : ''}.`,
  )
  console.log(
    `Calibration: ${report.calibrationMs.toFixed(0)} ms for the fixed task on one core, loopback round trip ${report.loopbackUs.toFixed(0)} µs (lower is faster; compare runs by them).`,
  )
  for (const e of report.errors) console.log(`ERROR: ${e}`)
  console.log(
    `Total run time ${report.seconds.toFixed(0)} s${report.quick ? ' (--quick)' : ''}.`,
  )
}
