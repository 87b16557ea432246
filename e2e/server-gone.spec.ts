// An open dashboard tab whose server goes away: it says so within seconds, its shape
// streams wait together while only the health probe asks, and it catches up once the server is
// back. The spec runs its own server, since it stops it.
import { randomUUID } from 'node:crypto'
import { expect, test, type Request } from '@playwright/test'
import { startOwnServer, type OwnServer } from './support/own-server.ts'

const OFFLINE = 'Offline, showing last-known data'
// Chromium's own line for every request that finds no server; ours are the others.
const BROWSER_NET_ERROR = /^Failed to load resource: net::/
let server: OwnServer

test.beforeAll(async () => {
  server = await startOwnServer()
})
test.afterAll(async () => {
  await server.destroy()
})

test('a tab notices the server is gone within 3 s, its streams wait for it, and it catches up', async ({
  browser,
}) => {
  // Without a service worker every request shows up as the page's own.
  const context = await browser.newContext({
    baseURL: server.url,
    serviceWorkers: 'block',
  })
  const name = `Gus ${randomUUID().slice(0, 8)}`
  const login = await context.request.post('/api/public/auth/local/login', {
    data: { name, email: `${name.replace(' ', '-')}@example.com` },
    headers: { origin: server.url },
  })
  expect(login.status()).toBe(200)
  const { rows } = await server.db.query<{ team_id: string }>(
    'select team_id from users where name = $1',
    [name],
  )
  const teamId = rows[0]?.team_id
  const source = await server.db.query<{ id: string }>(
    `insert into sources (team_id, name, region, connection_url, source_secret)
     values ($1, 'watched', 'us-east-1', 'postgres://app@127.0.0.1:1/app', 'sec_watched')
     returning id`,
    [teamId],
  )
  const page = await context.newPage()
  // The app registers its service worker once the first screen of data shows; here that is
  // blocked, and Playwright says so (with the app's warning) in the console. The page's start
  // is over once that has happened: the lines counted below are the outage's.
  const registered = page.waitForEvent('console', (message) =>
    message.text().startsWith('Service worker registration failed'),
  )
  // The source page follows all five dashboard shapes: user, teams, members, sources, its log.
  await page.goto(`/teams/${teamId}/${source.rows[0]?.id}`)
  const nav = page.getByRole('navigation', { name: 'Main' })
  await expect(nav.getByRole('link', { name: `${name}'s team` })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'watched' })).toBeVisible()
  await registered

  const failed: string[] = []
  const ours: string[] = []
  const onFailed = (request: Request) =>
    failed.push(new URL(request.url()).pathname)
  page.on('requestfailed', onFailed)
  page.on('console', (message) => {
    if (!BROWSER_NET_ERROR.test(message.text())) ours.push(message.text())
  })
  const probes = () => failed.filter((p) => p === '/api/public/health').length
  const shapeFailures = () => failed.filter((p) => p.startsWith('/v1/')).length

  await server.stop()
  // One failed shape request is evidence enough; the health probe alone took up to 15 s.
  await expect(page.getByText(OFFLINE)).toBeVisible({ timeout: 3_000 })
  // The requests open when the server went have failed; from then on the streams wait for
  // the probe rather than each retrying on its own.
  await expect.poll(probes).toBeGreaterThanOrEqual(1)
  const shapeFailuresBefore = shapeFailures()
  const probesBefore = probes()
  await expect.poll(probes).toBeGreaterThanOrEqual(probesBefore + 2)
  expect(shapeFailures()).toBe(shapeFailuresBefore)
  expect(ours.length, ours.join('\n')).toBeLessThanOrEqual(1)

  // A change made while the tab was waiting arrives once the server is back.
  await server.db.query(
    `update teams set name = 'Renamed away' where id = $1`,
    [teamId],
  )
  await server.start()
  await expect(page.getByText(OFFLINE)).toBeHidden({ timeout: 5_000 })
  await expect(nav.getByRole('link', { name: 'Renamed away' })).toBeVisible({
    timeout: 5_000,
  })
  page.off('requestfailed', onFailed)
  await context.close()
})
