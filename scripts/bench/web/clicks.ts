// What a click costs while the dashboard's live syncs run. A user with 3 teams, 20
// sources and 2 followed sources renames a source and clears its cache on its page, and creates
// a setup link on a team page (click-actions.ts); with 3 tabs, the other two show All Sources
// and the Shape Explorer with a live grid on a real source. Per click, in the page's own clock:
// click → its request sent (Resource Timing requestStart: the time it queued for a
// connection), click → the answer (responseEnd), click → the outcome on screen (the probe).
// Meanwhile the live requests in flight over the whole profile (tabs and workers) are counted
// at each request's start and end, and sampled every 100 ms.
import type { BrowserContext, Page, Request } from '@playwright/test'
import type pg from 'pg'
import { LIVE_WATCH_PATH } from '../../../src/shared/live-watch.ts'
import { seenText, watchText, type User } from './browser.ts'
import {
  clearCache,
  createSetupLink,
  renameSource,
  type ClickAction,
} from './click-actions.ts'
import type { Cleanup } from './cleanup.ts'
import { addSource, EXPLORER_TABLE, sourceDatabase } from './explorer.ts'
import type { RunningServer } from './server.ts'
import { until } from './wait.ts'

export type ActionTimes = {
  action: string
  /** Click → request sent; click → answer; click → outcome on screen (ms, per click). */
  queuedMs: number[]
  answerMs: number[]
  screenMs: number[]
  /** Clicks whose outcome never showed within the budget. */
  timeouts: number
}

export type ClicksResult = {
  tabs: number
  actions: ActionTimes[]
  /** Most live requests in flight at once: exactly (events), and sampled every 100 ms. */
  liveMost: number
  liveMostSampled: number
  /** Watches sent over the run, and live requests the hub released. */
  watches: number
  liveSent: number
}

const SOURCES = 20
const SCREEN_TIMEOUT_MS = 10_000

/** Two more teams and 20 sources over the three; returns teams and sources in order. */
async function seedTeams(db: pg.Pool, user: User) {
  const { rows } = await db.query<{ team_id: string }>(
    'select team_id from users where email = $1',
    [user.email],
  )
  const teams = [rows[0]?.team_id ?? '']
  for (const name of ['Second team', 'Third team']) {
    const { rows: added } = await db.query<{ id: string }>(
      `with team as (insert into teams (name) values ($2) returning id)
       insert into memberships (team_id, user_id)
       select team.id, users.id from team, users where users.email = $1
       returning team_id as id`,
      [user.email, name],
    )
    teams.push(added[0]?.id ?? '')
  }
  const sources: string[] = []
  for (let i = 0; i < SOURCES; i++) {
    const { rows: added } = await db.query<{ id: string }>(
      `insert into sources (team_id, name, region, connection_url, source_secret)
       values ($1, $2, 'eu-west-1', 'postgres://app@db.example.com/app', 'sec_bench_web')
       returning id`,
      [teams[i % teams.length], `clicks-${String(i).padStart(2, '0')}`],
    )
    sources.push(added[0]?.id ?? '')
  }
  return { teams, sources }
}

const isLive = (request: Request) => {
  const url = new URL(request.url())
  return (
    url.pathname === LIVE_WATCH_PATH || url.searchParams.get('live') === 'true'
  )
}

function countLive(context: BrowserContext) {
  const open = new Set<Request>()
  const counts = { most: 0, mostSampled: 0, watches: 0, liveSent: 0 }
  const end = (request: Request) => open.delete(request)
  context.on('request', (request) => {
    if (!isLive(request)) return
    if (new URL(request.url()).pathname === LIVE_WATCH_PATH) counts.watches++
    else counts.liveSent++
    open.add(request)
    counts.most = Math.max(counts.most, open.size)
  })
  context.on('requestfinished', end)
  context.on('requestfailed', end)
  const timer = setInterval(() => {
    counts.mostSampled = Math.max(counts.mostSampled, open.size)
  }, 100)
  return { counts, stop: () => clearInterval(timer) }
}

// Scripts typecheck without the DOM library: the in-page parts are plain expressions.
const ARM_CLICK = `window.__clickAt = null;
document.addEventListener('click', () => (window.__clickAt = performance.now()),
  { capture: true, once: true })`

/** Clicks the action's confirming button; the click's time in the page's clock. */
async function clickConfirm(page: Page, action: ClickAction): Promise<number> {
  await page.evaluate(ARM_CLICK)
  await action.confirm(page).click()
  let at: number | null = null
  await until(async () => {
    at = (await page.evaluate('window.__clickAt')) as number | null
    return at !== null
  }, 'the click to land')
  return at ?? NaN
}

type Timing = { queued: number; answer: number }

/** The click's request as Resource Timing saw it, relative to the click. */
async function requestTiming(
  page: Page,
  pathname: string,
  clickAt: number,
): Promise<Timing> {
  const path = JSON.stringify(pathname)
  const read = `(() => {
    const entry = performance.getEntriesByType('resource').find((e) =>
      new URL(e.name).pathname === ${path} && e.startTime >= ${clickAt} && e.responseEnd > 0)
    return entry
      ? { queued: entry.requestStart - ${clickAt}, answer: entry.responseEnd - ${clickAt} }
      : null
  })()`
  let timing: Timing | null = null
  await until(async () => {
    timing = (await page.evaluate(read)) as Timing | null
    return timing !== null
  }, `${pathname} to be answered`)
  return timing as unknown as Timing
}

/** `samples` clicks of one action, on its page. */
async function timeAction(
  page: Page,
  action: ClickAction,
  samples: number,
): Promise<ActionTimes> {
  const times: ActionTimes = {
    action: action.name,
    queuedMs: [],
    answerMs: [],
    screenMs: [],
    timeouts: 0,
  }
  // A user follows the app's links: a reload would end the page's requests and start its
  // successor's, and the two overlap for a moment in the count of live requests.
  if (new URL(page.url()).pathname !== action.path)
    await (action.reach ? action.reach(page) : page.goto(action.path))
  await page.waitForURL((url) => url.pathname === action.path)
  for (let i = 1; i <= samples; i++) {
    const shows = await action.prepare(page, i)
    if (shows) await watchText(page, shows)
    const clickAt = await clickConfirm(page, action)
    const { queued, answer } = await requestTiming(
      page,
      action.request,
      clickAt,
    )
    times.queuedMs.push(queued)
    times.answerMs.push(answer)
    if (shows) {
      const shown = await seenText(page, shows, SCREEN_TIMEOUT_MS)
      if (shown) times.screenMs.push(shown.sinceNavigationMs - clickAt)
      else times.timeouts++
    }
    await action.finish(page)
  }
  return times
}

/** A tab on the Shape Explorer, its grid following a real source's table live. */
async function explorerTab(
  context: BrowserContext,
  server: RunningServer,
  cleanup: Cleanup,
): Promise<Page> {
  const source = await sourceDatabase(server, cleanup)
  const { teamId, sourceId } = await addSource(context, server, source.url)
  const page = await context.newPage()
  await page.goto(
    `/shape-explorer?teamId=${teamId}&sourceId=${sourceId}&table=${EXPLORER_TABLE}`,
  )
  await page.locator('.MuiDataGrid-row').first().waitFor()
  return page
}

export async function measureClicks(options: {
  context: BrowserContext
  server: RunningServer
  cleanup: Cleanup
  user: User
  tabs: 1 | 3
  samples: number
  log: (line: string) => void
}): Promise<ClicksResult> {
  const { context, tabs, samples } = options
  const { teams, sources } = await seedTeams(options.server.db, options.user)
  const [first, second] = [sources[0] ?? '', sources[1] ?? '']
  const pages: Page[] = []
  if (tabs === 3) {
    const all = await context.newPage()
    await all.goto('/sources')
    pages.push(all, await explorerTab(context, options.server, options.cleanup))
  }
  const page = await context.newPage()
  pages.push(page)
  // Two followed sources: the second, then the one clicked on.
  await page.goto(`/teams/${teams[1]}/${second}`)
  await page.getByRole('heading', { name: 'Source: clicks-01' }).waitFor()
  await page.getByRole('link', { name: 'All Sources' }).click()
  await page.getByRole('link', { name: 'clicks-00' }).click()
  await page.getByRole('heading', { name: 'Source: clicks-00' }).waitFor()

  const live = countLive(context)
  const result: ClicksResult = {
    tabs,
    actions: [],
    liveMost: 0,
    liveMostSampled: 0,
    watches: 0,
    liveSent: 0,
  }
  const sourcePage = teams[0] ?? ''
  try {
    for (const action of [
      renameSource(sourcePage, first, tabs),
      clearCache(sourcePage, first),
      createSetupLink(teams[1] ?? '', 'Second team'),
    ]) {
      result.actions.push(await timeAction(page, action, samples))
      options.log(`  ${tabs} tab(s): ${samples} × ${action.name}`)
    }
  } finally {
    live.stop()
    for (const p of pages) await p.close()
  }
  Object.assign(result, {
    liveMost: live.counts.most,
    liveMostSampled: live.counts.mostSampled,
    watches: live.counts.watches,
    liveSent: live.counts.liveSent,
  })
  options.log(`  ${tabs} tab(s): live requests at most ${result.liveMost}`)
  return result
}
