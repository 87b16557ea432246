// Analytics end to end: the built app, the server's /ingest proxy and a fake PostHog started by
// the e2e launcher. Page views carry the full URL; the landing page identifies the user.
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { CapturedEvent } from '../tests/support/fake-posthog.ts'
import { expect, test } from './support/fixtures.ts'
import { posthogUrlFile } from './support/paths.ts'

async function recordedEvents(): Promise<CapturedEvent[]> {
  const fake = readFileSync(posthogUrlFile, 'utf8')
  const response = await fetch(`${fake}/recorded`)
  return ((await response.json()) as { events: CapturedEvent[] }).events
}

const distinctId = (e: CapturedEvent) =>
  (e.properties.distinct_id ?? e.distinct_id) as string | undefined

/** The URLs of the page views a visitor (by distinct id) has sent, in order. */
async function pageViewsOf(id: string): Promise<unknown[]> {
  return (await recordedEvents())
    .filter((e) => e.event === '$pageview' && distinctId(e) === id)
    .map((e) => e.properties.$current_url)
}

test.beforeEach(async ({ page }) => {
  // posthog-js rightly drops events from automated browsers (navigator.webdriver); this one
  // stands in for a person.
  await page.addInitScript(() =>
    Object.defineProperty(Navigator.prototype, 'webdriver', {
      get: () => false,
    }),
  )
})

test('the landing page identifies the user; each navigation sends one page view', async ({
  page,
  signIn,
  baseURL,
}) => {
  const user = await signIn()
  const elsewhere: string[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.origin !== baseURL) elsewhere.push(url.href)
  })
  const ingest: string[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.pathname.startsWith('/ingest/')) ingest.push(url.pathname)
  })

  await page.goto('/')
  await expect(page).toHaveURL(/\/sources$/)

  let userId: string | undefined
  await expect
    .poll(async () => {
      const identify = (await recordedEvents()).find(
        (e) => e.event === '$identify' && e.$set?.email === user.email,
      )
      userId = identify && distinctId(identify)
      return identify?.$set
    })
    .toEqual({ name: user.name, email: user.email })
  const id = userId ?? ''
  await expect.poll(() => pageViewsOf(id)).toEqual([`${baseURL}/sources`])

  await page.getByRole('link', { name: 'Preferences' }).click()
  await expect(page.getByRole('heading', { name: 'Preferences' })).toBeVisible()
  await expect
    .poll(() => pageViewsOf(id))
    .toEqual([`${baseURL}/sources`, `${baseURL}/preferences`])

  await page.getByRole('link', { name: `${user.name}'s team` }).click()
  await expect(page).toHaveURL(/\/teams\/[0-9a-f-]+$/)
  const teamUrl = page.url()
  await expect
    .poll(() => pageViewsOf(id))
    .toEqual([`${baseURL}/sources`, `${baseURL}/preferences`, teamUrl])

  // Everything went through our own origin, and posthog-js loaded nothing but itself.
  expect(elsewhere).toEqual([])
  expect(ingest.length).toBeGreaterThan(0)
  for (const path of ingest) expect(path).toMatch(/^\/ingest\/(i\/v0\/)?e\/$/)
})

test("a visitor's page view carries the full URL, query included", async ({
  page,
  baseURL,
}) => {
  const visit = randomUUID()
  await page.goto(`/?visit=${visit}`)
  await expect(
    page.getByRole('heading', { name: 'Welcome to Sluice' }),
  ).toBeVisible()
  const url = `${baseURL}/?visit=${visit}`
  await expect
    .poll(async () =>
      (await recordedEvents()).filter(
        (e) => e.event === '$pageview' && e.properties.$current_url === url,
      ),
    )
    .toHaveLength(1)
  // Nobody is signed in, so nobody was identified.
  const events = await recordedEvents()
  const view = events.find((e) => e.properties.$current_url === url)
  const anonymous = view && distinctId(view)
  expect(anonymous).toBeTruthy()
  expect(
    events.filter(
      (e) => e.event === '$identify' && distinctId(e) === anonymous,
    ),
  ).toEqual([])
})
