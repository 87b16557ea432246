// The dashboard's live syncs leave the browser's connections to its actions: over
// HTTP/1.1 Chromium opens at most 6 connections per host, and a long-poll holds one for up to
// 20 s. With 3 teams, 20 sources and 3 tabs open on different pages, the profile never has more
// than LIVE_BOUND live requests in flight, and a click's request is sent at once rather than
// queued behind them.
import { readFileSync } from 'node:fs'
import type { BrowserContext, Page, Request } from '@playwright/test'
import pg from 'pg'
import { addTeam } from './support/explorer.ts'
import { expect, test } from './support/fixtures.ts'
import { databaseUrlFile } from './support/paths.ts'

/** Fewer than Chromium's 6, with room for a click and a navigation (live-watch-hub.ts). */
const LIVE_BOUND = 4
/** A request queued this long waited for a connection. */
const QUEUE_LIMIT_MS = 1_000

let db: pg.Pool
test.beforeAll(() => {
  db = new pg.Pool({
    connectionString: readFileSync(databaseUrlFile, 'utf8'),
    max: 2,
  })
})
test.afterAll(async () => {
  await db.end()
})

/** A long-poll: a live shape request, or the watch that holds them all. */
const isLive = (request: Request) => {
  const url = new URL(request.url())
  return url.pathname === '/v1/watch' || url.searchParams.get('live') === 'true'
}

/** Live requests in flight across the whole profile (tabs and their workers), and the most seen. */
function countLive(context: BrowserContext) {
  const open = new Set<Request>()
  const counts = { now: 0, most: 0, watches: 0 }
  const done = (request: Request) => {
    open.delete(request)
    counts.now = open.size
  }
  context.on('request', (request) => {
    if (!isLive(request)) return
    if (new URL(request.url()).pathname === '/v1/watch') counts.watches++
    open.add(request)
    counts.now = open.size
    counts.most = Math.max(counts.most, open.size)
  })
  context.on('requestfinished', done)
  context.on('requestfailed', done)
  return counts
}

/** How long each of the page's API requests waited in the browser before it was sent. */
const queuedMs = (page: Page) =>
  page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((e) => new URL(e.name).pathname.startsWith('/api/v1/'))
      .map((e) => ({
        path: new URL(e.name).pathname,
        queued: Math.round(e.requestStart - e.startTime),
      })),
  )

test('three tabs over 3 teams and 20 sources keep to one watch, and a rename is sent at once', async ({
  page,
  signIn,
}) => {
  const user = await signIn()
  const context = page.context()
  const live = countLive(context)
  const { rows } = await db.query<{ team_id: string }>(
    'select team_id from users where email = $1',
    [user.email],
  )
  const teams = [
    rows[0]?.team_id ?? '',
    await addTeam(db, user.email, 'Second team'),
    await addTeam(db, user.email, 'Third team'),
  ]
  const sources: string[] = []
  for (let i = 0; i < 20; i++) {
    const { rows: added } = await db.query<{ id: string }>(
      `insert into sources (team_id, name, region, connection_url, source_secret)
       values ($1, $2, 'eu-west-1', 'postgres://app@db.example.com/app', 'sec_123456789')
       returning id`,
      [teams[i % 3], `source-${String(i).padStart(2, '0')}`],
    )
    sources.push(added[0]?.id ?? '')
  }

  await page.goto('/sources')
  await expect(page.getByRole('link', { name: 'source-19' })).toBeVisible()
  const teamTab = await context.newPage()
  await teamTab.goto(`/teams/${teams[1]}`)
  await expect(teamTab.getByRole('link', { name: 'source-19' })).toBeVisible()
  const sourceTab = await context.newPage()
  // Two followed sources: their event logs and live shapes sync too.
  await sourceTab.goto(`/teams/${teams[2]}/${sources[2]}`)
  await expect(
    sourceTab.getByRole('heading', { name: 'Source: source-02' }),
  ).toBeVisible()
  await sourceTab.getByRole('link', { name: 'All Sources' }).click()
  await sourceTab.getByRole('link', { name: 'source-00' }).click()
  await expect(
    sourceTab.getByRole('heading', { name: 'Source: source-00' }),
  ).toBeVisible()
  // Every shape caught up and waiting: the watch is in flight.
  await expect.poll(() => live.now).toBeGreaterThan(0)

  await sourceTab.getByRole('button', { name: 'Rename' }).click()
  const dialog = sourceTab.getByRole('dialog', { name: 'Rename source' })
  await dialog.getByLabel('Name').fill('renamed-00')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toBeHidden()
  await expect(
    sourceTab.getByRole('heading', { name: 'Source: renamed-00' }),
  ).toBeVisible()
  // The other tabs follow, through the same one watch.
  await expect(page.getByRole('link', { name: 'renamed-00' })).toBeVisible()

  for (const tab of [page, teamTab, sourceTab])
    for (const { path, queued } of await queuedMs(tab))
      expect(queued, `${path} waited for a connection`).toBeLessThan(
        QUEUE_LIMIT_MS,
      )
  expect(live.watches, 'the live syncs used the watch').toBeGreaterThan(0)
  expect(live.most, 'live requests in flight at once').toBeLessThanOrEqual(
    LIVE_BOUND,
  )
})

test('a followed source whose page no tab shows is not kept live, and catches up when it opens', async ({
  page,
  signIn,
}) => {
  const user = await signIn()
  const { rows } = await db.query<{ team_id: string }>(
    'select team_id from users where email = $1',
    [user.email],
  )
  const teamId = rows[0]?.team_id ?? ''
  const { rows: added } = await db.query<{ id: string }>(
    `insert into sources (team_id, name, region, connection_url, source_secret)
     values ($1, 'followed', 'eu-west-1', 'postgres://app@db.example.com/app', 'sec_123456789')
     returning id`,
    [teamId],
  )
  const sourceId = added[0]?.id ?? ''
  // What the latest watch held: the live requests of the whole profile.
  let watched: string[] = []
  page.context().on('request', (request) => {
    if (new URL(request.url()).pathname !== '/v1/watch') return
    watched = (request.postDataJSON() as { requests: string[] }).requests
  })
  const followsLog = () =>
    watched.some((path) => path.includes(`source_id=${sourceId}`))

  await page.goto(`/teams/${teamId}/${sourceId}`)
  await expect(
    page.getByRole('heading', { name: 'Source: followed' }),
  ).toBeVisible()
  await expect.poll(followsLog).toBe(true)

  await page.getByRole('link', { name: 'All Sources' }).click()
  await expect(page.getByRole('link', { name: 'followed' })).toBeVisible()
  // The change ends the watch in flight (which still held the log); the next one leaves it out.
  await db.query(
    `insert into source_event_logs (source_id, event_name, instance_id)
     values ($1, 'written_while_away', 'i-1')`,
    [sourceId],
  )
  await expect.poll(followsLog).toBe(false)
  await page.getByRole('link', { name: 'followed' }).click()
  await expect(
    page.getByText('written_while_away', { exact: true }).first(),
  ).toBeVisible()
  await expect.poll(followsLog).toBe(true)
})
