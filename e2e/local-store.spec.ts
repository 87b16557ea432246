// The local store across visits: a reload resumes from stored offsets, and a different user
// signing in on the same browser never sees the previous user's data.
import type { Page } from '@playwright/test'
import { expect, test } from './support/fixtures.ts'
import { storeSaved } from './support/local-store.ts'

/**
 * Shape requests this page (and its worker) makes from now on: each sent as it is, and each
 * live request held in the profile's watch (POST /v1/watch), which goes only once the server
 * has something for it.
 */
function shapeRequests(page: Page): URL[] {
  const seen: URL[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.pathname === '/v1/watch') {
      const { requests } = request.postDataJSON() as { requests: string[] }
      for (const path of requests) seen.push(new URL(path, url))
    } else if (url.pathname.startsWith('/v1/')) seen.push(url)
  })
  return seen
}

const isLive = (url: URL) => url.searchParams.get('live') === 'true'

/**
 * Opens /sources in a browser that has no store yet and waits until the user's team shows and
 * every shape is caught up (long-polling live); the shape requests it made.
 */
async function firstVisit(page: Page, userName: string): Promise<URL[]> {
  const requests = shapeRequests(page)
  await page.goto('/sources')
  await expect(
    page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: `${userName}'s team` }),
  ).toBeVisible()
  await expect
    .poll(() => new Set(requests.filter(isLive).map((u) => u.pathname)).size)
    .toBeGreaterThanOrEqual(4)
  return requests
}

test('a reload resumes from the local store without refetching snapshots', async ({
  page,
  signIn,
}) => {
  const user = await signIn()
  await firstVisit(page, user.name)
  // The store is written back before the reload.
  await storeSaved(page)
  const nav = page.getByRole('navigation', { name: 'Main' })

  // A browser holding a store starts its worker from index.html, before the app's scripts run
  // (they run after the parser is done, when the document turns "interactive").
  await page.addInitScript(() =>
    document.addEventListener('readystatechange', () => {
      if (document.readyState !== 'interactive') return
      const page = window as unknown as Record<string, unknown>
      page.storeStartedBeforeApp = '__sluiceStore' in page
    }),
  )
  await page.reload()
  const second = shapeRequests(page)
  await expect(
    nav.getByRole('link', { name: `${user.name}'s team` }),
  ).toBeVisible()
  await expect.poll(() => second.filter(isLive).length).toBeGreaterThan(0)
  expect(
    second.filter((u) => u.searchParams.get('offset') === '-1').map(String),
  ).toEqual([])
  expect(
    await page.evaluate(
      () =>
        (window as unknown as Record<string, unknown>).storeStartedBeforeApp,
    ),
  ).toBe(true)
})

test("a first visit asks for the user's snapshots while the store opens, once each", async ({
  page,
  signIn,
}) => {
  const user = await signIn()
  const requests = await firstVisit(page, user.name)
  const snapshots = requests
    .filter((u) => u.searchParams.get('offset') === '-1')
    .map((u) => u.pathname)
    .sort()
  expect(snapshots).toEqual([
    '/v1/sources',
    '/v1/team-users',
    '/v1/teams',
    '/v1/user/me',
  ])
  // Asked by the tab (its own resource timing; the store's worker has its own), while the
  // worker started Postgres, and not asked again by the worker's sync.
  const askedByTab = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name))
      .filter(
        (u) =>
          u.pathname.startsWith('/v1/') &&
          u.searchParams.get('offset') === '-1',
      )
      .map((u) => u.pathname)
      .sort(),
  )
  expect(askedByTab).toEqual(snapshots)
})

test('signing out and in as someone else shows nothing of the first user', async ({
  page,
  signIn,
}) => {
  const first = await signIn()
  await page.goto('/sources')
  const nav = page.getByRole('navigation', { name: 'Main' })
  await expect(
    nav.getByRole('link', { name: `${first.name}'s team` }),
  ).toBeVisible()
  await nav.getByRole('button', { name: 'Logout' }).click()
  await expect(
    page.getByRole('link', { name: 'Sign in with GitHub' }),
  ).toBeVisible()

  const second = await signIn()
  await page.goto('/sources')
  await expect(
    nav.getByRole('link', { name: `${second.name}'s team` }),
  ).toBeVisible()
  await expect(page.getByText(first.name)).toHaveCount(0)
  await page.goto('/preferences')
  await expect(page.getByText(second.email)).toBeVisible()
  await expect(page.getByText(first.email)).toHaveCount(0)
})

test("after signing out, the browser's HTTP cache holds none of the user's shape answers", async ({
  page,
  signIn,
}) => {
  const shapeUrls = new Set<string>()
  page.on('response', (response) => {
    const url = new URL(response.url())
    if (url.pathname.startsWith('/v1/') && response.status() === 200)
      shapeUrls.add(url.toString())
  })
  const user = await signIn()
  await page.goto('/sources')
  const nav = page.getByRole('navigation', { name: 'Main' })
  await expect(
    nav.getByRole('link', { name: `${user.name}'s team` }),
  ).toBeVisible()
  expect(shapeUrls.size).toBeGreaterThan(0)
  await nav.getByRole('button', { name: 'Logout' }).click()
  await expect(
    page.getByRole('link', { name: 'Sign in with GitHub' }),
  ).toBeVisible()

  // 'only-if-cached' answers from the HTTP cache or fails: every shape answer (the sources'
  // carry their secrets) must fail. Asked from a bare page of the same browser (same cache),
  // so the misses Chromium logs are not the app's console errors.
  const probe = await page.context().newPage()
  await probe.goto('/api/public/health')
  const cached = await probe.evaluate(
    async (urls) => {
      const found: string[] = []
      for (const url of urls) {
        const hit = await fetch(url, {
          cache: 'only-if-cached',
          mode: 'same-origin',
        }).then(
          (response) => response.ok,
          () => false,
        )
        if (hit) found.push(url)
      }
      return found
    },
    [...shapeUrls],
  )
  expect(cached).toEqual([])
})
