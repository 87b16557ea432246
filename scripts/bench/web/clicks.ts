// Issue 35: what a click costs while the dashboard's live syncs run. A user with 3 teams, 20
// sources and 2 followed sources renames a source on its page, with the other tabs (if any) on
// All Sources and a team page. Per rename, in the page's own clock: click → its request sent
// (Resource Timing requestStart: the time it queued for a connection), click → the answer
// (responseEnd), click → the new name on screen (the probe). Meanwhile the live requests in
// flight over the whole profile (tabs and workers) are counted at each request's start and end,
// and sampled every 100 ms.
import type { BrowserContext, Page, Request } from '@playwright/test'
import type pg from 'pg'
import { LIVE_WATCH_PATH } from '../../../src/shared/live-watch.ts'
import { seenText, watchText, type User } from './browser.ts'
import { until } from './wait.ts'

export type ClicksResult = {
  tabs: number
  /** Click → request sent; click → answer; click → new name on screen (ms, per rename). */
  queuedMs: number[]
  answerMs: number[]
  screenMs: number[]
  /** Renames whose name never showed within the budget. */
  timeouts: number
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

/** Clicks Save in the open rename dialog; the click's time in the page's clock. */
async function clickSave(page: Page): Promise<number> {
  await page.evaluate(ARM_CLICK)
  await page
    .getByRole('dialog', { name: 'Rename source' })
    .getByRole('button', { name: 'Save' })
    .click()
  let at: number | null = null
  await until(async () => {
    at = (await page.evaluate('window.__clickAt')) as number | null
    return at !== null
  }, 'the click to land')
  return at ?? NaN
}

type Timing = { queued: number; answer: number }

/** The rename's request as Resource Timing saw it, relative to the click. */
async function requestTiming(
  page: Page,
  sourceId: string,
  clickAt: number,
): Promise<Timing> {
  const path = JSON.stringify(`/api/v1/sources/${sourceId}`)
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
  }, 'the rename request to be answered')
  return timing as unknown as Timing
}

export async function measureClicks(options: {
  context: BrowserContext
  db: pg.Pool
  user: User
  tabs: 1 | 3
  samples: number
  log: (line: string) => void
}): Promise<ClicksResult> {
  const { context, tabs, samples } = options
  const { teams, sources } = await seedTeams(options.db, options.user)
  const [first, second] = [sources[0] ?? '', sources[1] ?? '']
  const pages: Page[] = []
  if (tabs === 3) {
    const all = await context.newPage()
    await all.goto('/sources')
    const team = await context.newPage()
    await team.goto(`/teams/${teams[1]}`)
    pages.push(all, team)
  }
  const page = await context.newPage()
  pages.push(page)
  // Two followed sources: the second, then the one renamed.
  await page.goto(`/teams/${teams[1]}/${second}`)
  await page.getByRole('heading', { name: 'Source: clicks-01' }).waitFor()
  await page.getByRole('link', { name: 'All Sources' }).click()
  await page.getByRole('link', { name: 'clicks-00' }).click()
  await page.getByRole('heading', { name: 'Source: clicks-00' }).waitFor()

  const live = countLive(context)
  const result: ClicksResult = {
    tabs,
    queuedMs: [],
    answerMs: [],
    screenMs: [],
    timeouts: 0,
    liveMost: 0,
    liveMostSampled: 0,
    watches: 0,
    liveSent: 0,
  }
  try {
    for (let i = 1; i <= samples; i++) {
      const name = `renamed-${tabs}-${i}`
      await page.getByRole('button', { name: 'Rename' }).click()
      await page
        .getByRole('dialog', { name: 'Rename source' })
        .getByLabel('Name')
        .fill(name)
      await watchText(page, `Source: ${name}`)
      const clickAt = await clickSave(page)
      const { queued, answer } = await requestTiming(page, first, clickAt)
      result.queuedMs.push(queued)
      result.answerMs.push(answer)
      const shown = await seenText(page, `Source: ${name}`, SCREEN_TIMEOUT_MS)
      if (shown) result.screenMs.push(shown.sinceNavigationMs - clickAt)
      else result.timeouts++
      await page
        .getByRole('dialog', { name: 'Rename source' })
        .waitFor({ state: 'hidden' })
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
  options.log(
    `  ${tabs} tab(s): ${samples} renames, live requests at most ${result.liveMost}`,
  )
  return result
}
