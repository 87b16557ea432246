// The readable form of a run: each figure next to its target with ok/MISS, then what the
// figures mean and every miss spelled out.
import type { ActionTimes, ClicksResult } from './clicks.ts'
import type { LatencyResult } from './latency.ts'
import {
  latencyValues,
  percentile,
  TARGETS,
  toJson,
  type Report,
} from './report.ts'

type Row = { label: string; value: string; target: string; ok: boolean | null }

const ms = (n: number) =>
  Number.isNaN(n) ? '-' : Number.isFinite(n) ? `${n.toFixed(0)} ms` : 'timeout'
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`
const mib = (n: number) => `${(n / 1024 / 1024).toFixed(2)} MiB`
const info = (label: string, value: string): Row => ({
  label,
  value,
  target: '',
  ok: null,
})

const LEGEND = [
  'Entry gzip: zlib default level, as Vite reports it. Precache: the list workbox injected into sw.js.',
  'Visits: a new tab each, navigation start → the card link in the DOM (a MutationObserver).',
  '  A first visit: a new profile and a new user, signed in, then /sources (sync, worker install).',
  'Commit-to-screen: Date.now() after the UPDATE returns in Node → the new state text in the DOM,',
  '  Date.now() in the page; same machine, same clock. "cache bypassed" routes shape requests',
  '  through Playwright, which turns the HTTP cache off (and adds a hop): a diagnostic, no target.',
  'Explorer click: a new tab on /shape-explorer, the 1,000-row table clicked → its first row in',
  '  the grid (performance.now() in the page). Commit-to-grid: as commit-to-screen, for a row',
  "  updated in the source's own database, shown in the grid through /v1/shape.",
  'Clicks: 3 teams, 20 sources, 2 followed; rename and clear cache on a source page, create (a',
  '  setup link) on a team page; with 3 tabs the others show All Sources and the Shape Explorer',
  '  with a live grid. Click → request sent (Resource Timing requestStart: its wait for a',
  '  connection), → answer (responseEnd), → outcome on screen (the new name; the created link,',
  '  once its row synced); live requests in flight over the profile (the watch and the',
  '  requests it releases), most at once.',
  'Percentiles are nearest-rank; a timeout counts as infinitely slow.',
]

function sizeRows(r: Report): Row[] {
  const out: Row[] = []
  if (r.sizes)
    out.push(
      {
        label: `entry JS gzip (${r.sizes.entry})`,
        value: kib(r.sizes.entryGzip),
        target: `≤ ${kib(TARGETS.entryGzipBytes)}`,
        ok: r.sizes.entryGzip <= TARGETS.entryGzipBytes,
      },
      info(
        `entry + ${r.sizes.preloads} modulepreloads gzip`,
        kib(r.sizes.withPreloadsGzip),
      ),
    )
  if (r.precache)
    out.push(
      info(`precache (${r.precache.entries} entries)`, mib(r.precache.bytes)),
    )
  return out
}

function visitRows(name: string, times: number[], target: number): Row[] {
  if (times.length === 0) return []
  const median = percentile(times, 0.5)
  return [
    {
      label: `${name} median (${times.length} visits)`,
      value: ms(median),
      target: `≤ ${ms(target)}`,
      ok: median <= target,
    },
    info(`${name} p90`, ms(percentile(times, 0.9))),
  ]
}

function latencyRows(
  name: string,
  r: LatencyResult | null,
  targets: { p50: number; p99: number } | null,
) {
  if (!r) return []
  const values = latencyValues(r)
  const p50 = percentile(values, 0.5)
  const p99 = percentile(values, 0.99)
  const count = `${values.length}${values.length < r.requested ? ` of ${r.requested}` : ''} changes${r.timeouts ? `, ${r.timeouts} timeouts` : ''}`
  const row = (p: string, value: number, target: number | null): Row => ({
    label: `${name} ${p}${p === 'p50' ? ` (${count})` : ''}`,
    value: ms(value),
    target: target === null ? '' : `≤ ${ms(target)}`,
    ok: target === null ? null : value <= target,
  })
  return [
    row('p50', p50, targets && targets.p50),
    row('p99', p99, targets && targets.p99),
    info(`${name} max`, ms(percentile(values, 1))),
  ]
}

function rows(r: Report): Row[] {
  const out = sizeRows(r)
  out.push(
    ...visitRows('first visit', r.firstVisits, TARGETS.firstVisitMedianMs),
    ...visitRows('online repeat visit', r.online, TARGETS.repeatVisitMedianMs),
    ...visitRows(
      'offline repeat visit',
      r.offline,
      TARGETS.repeatVisitMedianMs,
    ),
  )
  out.push(
    ...latencyRows('commit-to-screen', r.commitToScreen, {
      p50: TARGETS.commitToScreenP50Ms,
      p99: TARGETS.commitToScreenP99Ms,
    }),
    ...latencyRows('  cache bypassed', r.commitToScreenUncached, null),
  )
  if (r.explorer)
    out.push(
      ...visitRows(
        'explorer click to rows',
        r.explorer.clickToRows,
        TARGETS.explorerClickToRowsMedianMs,
      ),
      ...latencyRows('commit-to-grid', r.explorer.commitToGrid, {
        p50: TARGETS.commitToGridP50Ms,
        p99: TARGETS.commitToGridP99Ms,
      }),
    )
  for (const c of r.clicks) out.push(...clickRows(c))
  return out
}

function clickRows(c: ClicksResult): Row[] {
  const tabs = `${c.tabs} tab${c.tabs > 1 ? 's' : ''}`
  return [
    ...c.actions.flatMap((a) => actionRows(a, `${a.action}, ${tabs}`)),
    {
      label: `${tabs}: live requests at once (sampled ${c.liveMostSampled})`,
      value: String(c.liveMost),
      target: `≤ ${TARGETS.liveRequestsMost}`,
      ok: c.liveMost <= TARGETS.liveRequestsMost,
    },
  ]
}

function actionRows(a: ActionTimes, name: string): Row[] {
  const row = (label: string, value: number, target: number): Row => ({
    label: `${name}: ${label}`,
    value: ms(value),
    target: `≤ ${ms(target)}`,
    ok: value <= target,
  })
  const rows = [
    row(
      `click to sent p99 (${a.answerMs.length} clicks)`,
      percentile(a.queuedMs, 0.99),
      TARGETS.clickQueuedP99Ms,
    ),
    row(
      'click to answer p50',
      percentile(a.answerMs, 0.5),
      TARGETS.clickAnswerP50Ms,
    ),
    row(
      'click to answer p99',
      percentile(a.answerMs, 0.99),
      TARGETS.clickAnswerP99Ms,
    ),
  ]
  // A clear of cache shows only a toast: no screen time.
  if (a.screenMs.length === 0 && a.timeouts === 0) return rows
  const screen = [...a.screenMs, ...Array<number>(a.timeouts).fill(Infinity)]
  return [
    ...rows,
    a.action === 'rename'
      ? row(
          'click to screen p50',
          percentile(screen, 0.5),
          TARGETS.clickScreenP50Ms,
        )
      : info(`${name}: click to screen p50`, ms(percentile(screen, 0.5))),
    info(`${name}: click to screen p99`, ms(percentile(screen, 0.99))),
    {
      label: `${name}: outcome never shown`,
      value: String(a.timeouts),
      target: '0',
      ok: a.timeouts === 0,
    },
  ]
}

export function printReport(r: Report): void {
  console.log(`BENCH_JSON ${JSON.stringify(toJson(r))}`)
  const table = rows(r)
  const width = (key: 'label' | 'value' | 'target', min: number) =>
    Math.max(min, ...table.map((x) => x[key].length))
  const [wl, wv, wt] = [
    width('label', 11),
    width('value', 5),
    width('target', 6),
  ]
  const line = (
    label: string,
    value: string,
    target: string,
    verdict: string,
  ) =>
    `${label.padEnd(wl)}  ${value.padEnd(wv)}  ${target.padEnd(wt)}  ${verdict}`.trimEnd()
  console.log('')
  console.log(line('measurement', 'value', 'target', 'result'))
  console.log('-'.repeat(wl + wv + wt + 12))
  for (const x of table)
    console.log(
      line(
        x.label,
        x.value,
        x.target,
        x.ok === null ? '' : x.ok ? 'ok' : 'MISS',
      ),
    )
  console.log('')
  for (const note of LEGEND) console.log(note)
  console.log('')
  const misses = table.filter((x) => x.ok === false)
  if (misses.length === 0 && r.errors.length === 0)
    console.log('All targets met.')
  for (const m of misses)
    console.log(`MISS: ${m.label.trim()}: ${m.value} (target ${m.target})`)
  for (const l of [
    r.commitToScreen,
    r.commitToScreenUncached,
    r.explorer?.commitToGrid,
  ])
    if (l?.stoppedBy) console.log(`Commit latency stopped: ${l.stoppedBy}.`)
  const busy = r.loadAverage.start > r.cpus / 2
  console.log(
    `Load average ${r.loadAverage.start.toFixed(2)} at start, ${r.loadAverage.end.toFixed(2)} at end on ${r.cpus} CPUs${busy ? ': other work was running, times may read high' : ''}.`,
  )
  for (const e of r.pageErrors) console.log(`PAGE ERROR: ${e}`)
  for (const e of r.errors) console.log(`ERROR: ${e}`)
  console.log(`Total run time ${r.seconds.toFixed(0)} s.`)
}
