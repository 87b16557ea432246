// Benchmarks the dashboard as a user gets it: the production build served by the real server
// (its own embedded Postgres), in Debian's Chromium:
//  1. entry JS gzip size, alone and with the chunks index.html modulepreloads;
//  2. what the service worker precaches;
//  3. first-visit time, sign-in to the first synced row on screen, in several fresh profiles;
//  4. repeat-visit time to the first synced row on /sources, from the local store, in a browser
//     profile kept on disk like a user's (browser.ts openProfile);
//  5. the same with the server stopped: service worker and local store only;
//  6. commit-to-screen latency of a source's state change (and, as a diagnostic, the same with
//     the browser's HTTP cache bypassed for shape requests);
//  7. the shape explorer: a click on a 1,000-row table to its first rows in the grid, and
//     commit-to-grid latency of a row changed in the source's own database;
//  8. clicks while the live syncs run: renames on a source page with 3 teams, 20
//     sources and 2 followed, in 1 tab and in 3, and the live requests in flight at once.
// The offline visits run last, so the server is stopped once and never restarted.
// `npm run bench:web [-- --no-build] [--visits-only | --explorer-only | --clicks-only]` prints
// `BENCH_JSON {...}` and a table; --visits-only stops after the online repeat visits,
// --explorer-only measures only the shape explorer after one first visit, --clicks-only only
// the clicks (all for quick comparisons).
import type { BrowserContext } from '@playwright/test'
import { spawnSync } from 'node:child_process'
import { availableParallelism, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { openProfile, signIn } from './bench/web/browser.ts'
import { Cleanup } from './bench/web/cleanup.ts'
import { measureClicks } from './bench/web/clicks.ts'
import { measureExplorer } from './bench/web/explorer.ts'
import { seedSource } from './bench/web/fixtures.ts'
import { commitToScreen } from './bench/web/latency.ts'
import type { Report } from './bench/web/report.ts'
import { startServer } from './bench/web/server.ts'
import { printReport } from './bench/web/table.ts'
import { entrySizes, precacheSize } from './bench/web/sizes.ts'
import { firstVisit, openLive, repeatVisits } from './bench/web/visits.ts'

const VISITS = 10
const FIRST_VISITS = 5
const SAMPLES = 100
const CLICKS = 50
const SOURCE_NAME = 'bench-orders'
const LATENCY_BUDGET_MS = 3 * 60_000
const DIST = fileURLToPath(new URL('../dist/', import.meta.url))

const log = (line: string) =>
  console.error(`[bench ${(performance.now() / 1000).toFixed(1)}s] ${line}`)

function build(): void {
  log('npm run build')
  // Its output goes to stderr with the log; stdout carries only the figures.
  const result = spawnSync('npm', ['run', 'build'], { stdio: ['ignore', 2, 2] })
  if (result.status !== 0) throw new Error(`npm run build: ${result.status}`)
}

/** A new browser profile with a new user signed in, owning one source. */
async function freshProfile(
  server: Awaited<ReturnType<typeof startServer>>,
  report: Report,
  cleanup: Cleanup,
) {
  const context = await openProfile(
    cleanup,
    server.url,
    [SOURCE_NAME],
    report.pageErrors,
  )
  const user = await signIn(context, server.url)
  const sourceId = await seedSource(server.db, user.email, SOURCE_NAME)
  return { context, sourceId }
}

async function measure(report: Report, cleanup: Cleanup): Promise<void> {
  if (!process.argv.includes('--no-build')) build()
  report.sizes = entrySizes(DIST)
  report.precache = precacheSize(DIST)

  const server = await startServer(cleanup, log)
  const explorer = async (context: BrowserContext) => {
    log(`shape explorer: ${VISITS} table clicks, then ${SAMPLES} row changes`)
    report.explorer = await measureExplorer({
      context,
      server,
      cleanup,
      visits: VISITS,
      samples: SAMPLES,
      budgetMs: LATENCY_BUDGET_MS,
      log,
    })
  }
  const clicks = async () => {
    for (const tabs of [1, 3] as const) {
      log(`clicks: ${CLICKS} of each action, ${tabs} tab(s)`)
      const profile = await openProfile(
        cleanup,
        server.url,
        [],
        report.pageErrors,
      )
      const user = await signIn(profile, server.url)
      report.clicks.push(
        await measureClicks({
          context: profile,
          server,
          cleanup,
          user,
          tabs,
          samples: CLICKS,
          log,
        }),
      )
      await profile.close()
    }
  }
  if (process.argv.includes('--clicks-only')) return clicks()
  if (process.argv.includes('--explorer-only')) {
    const { context } = await freshProfile(server, report, cleanup)
    report.firstVisits.push(await firstVisit(context, SOURCE_NAME))
    return explorer(context)
  }
  // Each first visit is a new user in a new profile: nothing cached, nothing stored. The last
  // profile is kept for the repeat visits.
  log(`first visits: ${FIRST_VISITS} fresh profiles`)
  let profile: Awaited<ReturnType<typeof freshProfile>> | null = null
  for (let k = 0; k < FIRST_VISITS; k++) {
    if (profile) await profile.context.close()
    profile = await freshProfile(server, report, cleanup)
    const ms = await firstVisit(profile.context, SOURCE_NAME)
    report.firstVisits.push(ms)
    log(`  first visit ${k + 1}: ${ms.toFixed(0)} ms`)
  }
  const { context, sourceId } = profile!
  log(`online: ${VISITS} repeat visits`)
  report.online = await repeatVisits(context, SOURCE_NAME, VISITS, log, {
    online: true,
  })

  if (process.argv.includes('--visits-only')) return

  log(`commit-to-screen: ${SAMPLES} state changes`)
  let page = await openLive(context, SOURCE_NAME)
  const changes = {
    commit: (state: string) =>
      server.db.query(
        'update sources set state = $1, updated_at = now() where id = $2',
        [state, sourceId],
      ),
    samples: SAMPLES,
    log,
  }
  report.commitToScreen = await commitToScreen({
    ...changes,
    page,
    prefix: 's',
    budgetMs: LATENCY_BUDGET_MS,
  })
  await page.close()

  // Diagnostic: Playwright turns the HTTP cache off for routed requests. Any gap between this
  // run and the one above is what the browser's cached shape answers cost.
  log(`commit-to-screen, HTTP cache bypassed: ${SAMPLES} state changes`)
  await context.route('**/v1/**', (route) => route.continue())
  page = await openLive(context, SOURCE_NAME)
  report.commitToScreenUncached = await commitToScreen({
    ...changes,
    page,
    prefix: 'u',
    budgetMs: LATENCY_BUDGET_MS,
  })
  await page.close()
  await context.unrouteAll()

  await explorer(context)
  await clicks()

  log('stopping the server')
  await server.stop()
  log(`offline: ${VISITS} repeat visits`)
  report.offline = await repeatVisits(context, SOURCE_NAME, VISITS, log, {
    online: false,
  })
}

async function main(): Promise<Report> {
  const started = performance.now()
  const report: Report = {
    seconds: 0,
    cpus: availableParallelism(),
    loadAverage: { start: loadavg()[0] ?? 0, end: 0 },
    sizes: null,
    precache: null,
    firstVisits: [],
    online: [],
    offline: [],
    commitToScreen: null,
    commitToScreenUncached: null,
    explorer: null,
    clicks: [],
    pageErrors: [],
    errors: [],
  }
  const cleanup = new Cleanup(log)
  cleanup.onSignals()
  try {
    await measure(report, cleanup)
  } catch (error) {
    report.errors.push((error as Error).stack ?? String(error))
  } finally {
    report.errors.push(...(await cleanup.run()))
  }
  report.seconds = (performance.now() - started) / 1000
  report.loadAverage.end = loadavg()[0] ?? 0
  return report
}

const report = await main()
printReport(report)
process.exit(report.errors.length > 0 ? 1 : 0)
