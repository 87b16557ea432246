// Offline: with the server down, the app reopens from the service worker's precache and shows
// the local store's last-known data; back online it catches up by itself. The spec runs its
// own server, since it stops it (Playwright's setOffline does not cover service worker fetches).
import { randomUUID } from 'node:crypto'
import { expect, test } from '@playwright/test'
import { startOwnServer, type OwnServer } from './support/own-server.ts'
import { waitForControl } from './support/pwa.ts'

const OFFLINE = 'Offline, showing last-known data'
let server: OwnServer

test.beforeAll(async () => {
  server = await startOwnServer()
})
test.afterAll(async () => {
  await server.destroy()
})

test('with the server down the app reopens on last-known data, then catches up', async ({
  browser,
}) => {
  test.setTimeout(180_000)
  const context = await browser.newContext({ baseURL: server.url })
  const pageErrors: string[] = []
  context.on('weberror', (e) => pageErrors.push(e.error().message))
  const name = `Olga ${randomUUID().slice(0, 8)}`
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

  await server.db.query(
    `insert into sources (team_id, name, region, connection_url, source_secret)
     values ($1, 'kept-offline', 'us-east-1', 'postgres://app@db.example.com/kept', 'sec_kept_offline')`,
    [teamId],
  )
  let page = await context.newPage()
  await page.goto('/sources')
  const team = `${name}'s team`
  await expect(page.getByRole('link', { name: team })).toBeVisible()
  await expect(page.getByRole('link', { name: 'kept-offline' })).toBeVisible()
  await waitForControl(page)
  await page.close()

  await server.stop()
  page = await context.newPage()
  await page.goto('/sources')
  await expect(page.getByText(OFFLINE)).toBeVisible()
  await expect(page.getByRole('link', { name: 'kept-offline' })).toBeVisible()
  const nav = page.getByRole('navigation', { name: 'Main' })
  await expect(nav.getByRole('link', { name: team })).toBeVisible()
  await expect(nav.getByRole('button', { name: 'Logout' })).toBeDisabled()

  // A change made while this browser was away arrives once the server is back.
  await server.db.query(
    `update teams set name = 'Renamed offline' where id = $1`,
    [teamId],
  )
  await server.start()
  await expect(page.getByText(OFFLINE)).toBeHidden()
  await expect(nav.getByRole('link', { name: 'Renamed offline' })).toBeVisible()
  await expect(nav.getByRole('button', { name: 'Logout' })).toBeEnabled()
  expect(pageErrors).toEqual([])
  await context.close()
})
