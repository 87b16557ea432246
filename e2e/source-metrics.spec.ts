// A source's figures on its page, from rows written straight into the control plane
// for a source of the signed-in user's team: the charts at 1280 and 375 px with their window
// toggle, the live shapes' figures, the invalidation log, the counts a clear-cache confirm names,
// the shapes_invalidated event, and offline the last-known charts from the local store.
import type { APIRequestContext, Page } from '@playwright/test'
import pg from 'pg'
import { expect, test } from './support/fixtures.ts'
import { startOwnServer } from './support/own-server.ts'
import { waitForControl } from './support/pwa.ts'
import { controlPlaneUrl } from './support/source-databases.ts'
import {
  NEWEST_INVALIDATION,
  SEEDED,
  SHAPES,
  seedFigures,
} from './support/source-figures.ts'

const EMPTY =
  'No figures yet: the first appear within a minute of the source streaming.'
const CHARTS = [
  'Retained WAL and lag',
  'Changes/s and writes/min',
  'Clients per shape',
  'Bytes/min per shape',
]

/** A source of the user's first team, its database never there (no engine writes its rows). */
async function addSource(request: APIRequestContext, baseURL: string) {
  const teams = (await (await request.get('/api/v1/teams')).json()) as {
    id: string
  }[]
  const teamId = teams[0]?.id ?? ''
  const response = await request.put('/api/v1/sources?skip_validation=true', {
    data: {
      region: 'eu-west-1',
      team_id: teamId,
      database_url: 'postgres://app:secret@127.0.0.1:1/app',
    },
    headers: { origin: baseURL },
  })
  expect(response.status()).toBe(201)
  const { id } = (await response.json()) as { id: string }
  return { teamId, sourceId: id }
}

/**
 * The source's page, shown before its figures are written: they then arrive live, as the
 * sampler's would, and the page has said it has none yet.
 */
async function seededSourcePage(page: Page, baseURL: string) {
  const { teamId, sourceId } = await addSource(page.request, baseURL)
  await page.goto(`/teams/${teamId}/${sourceId}`)
  await expect(page.getByText(EMPTY)).toBeVisible()
  const control = new pg.Client({ connectionString: controlPlaneUrl() })
  await control.connect()
  try {
    await seedFigures(control, sourceId)
    await control.query(
      `insert into source_event_logs (source_id, event_name, event_details, instance_id)
       values ($1, 'shapes_invalidated', $2, 'engine-e2e')`,
      [sourceId, JSON.stringify({ cause: 'clear_cache', shapes: 12 })],
    )
  } finally {
    await control.end()
  }
}

/** Every chart drawn: a line through its points in its svg, its figures in words beneath. */
async function expectCharts(page: Page) {
  const figures = page.getByRole('region', { name: 'Figures' })
  // The source's figure streams start with its page: on two busy cores their first answers
  // have taken longer than an expectation's 30 s.
  await expect(figures.getByRole('figure')).toHaveCount(CHARTS.length, {
    timeout: 90_000,
  })
  for (const name of CHARTS) {
    const chart = figures.getByRole('figure', { name })
    // A path, not visibility: a flat line's box has no height.
    await expect(
      chart.locator('svg .MuiLineChart-line').first(),
    ).toHaveAttribute('d', /^M[\d.]+,[\d.]+[CL]/)
  }
  await expect(
    figures.getByRole('figure', { name: CHARTS[0] }).locator('figcaption'),
  ).toHaveText(
    `Retained WAL: latest ${SEEDED.minutes} MiB, peak ${SEEDED.minutes} MiB. Lag: latest 0 B, peak 116 KiB.`,
  )
  return figures
}

async function expectNoSidewaysScroll(page: Page, width: number) {
  const scrollWidth = await page.evaluate(
    () => document.documentElement.scrollWidth,
  )
  expect(scrollWidth).toBeLessThanOrEqual(width)
}

test('the charts draw each window, and the live shapes, invalidations and confirm show the figures', async ({
  page,
  signIn,
  baseURL,
}) => {
  await signIn()
  await seededSourcePage(page, baseURL ?? '')

  const figures = await expectCharts(page)
  await expectNoSidewaysScroll(page, 1280)
  const line = figures
    .getByRole('figure', { name: CHARTS[0] })
    .locator('svg .MuiLineChart-line')
    .first()
  const windows = [
    ['Last hour', `${SEEDED.minutes} points over the last hour.`],
    ['Day', '24 points over the last 24 hours.'],
    ['Week', `${SEEDED.hours} points over the last 7 days.`],
  ] as const
  const drawn = new Set<string | null>()
  for (const [button, text] of windows) {
    await figures.getByRole('button', { name: button }).click()
    await expect(figures.getByText(text)).toBeVisible()
    drawn.add(await line.getAttribute('d'))
  }
  expect(drawn.size).toBe(3)

  // The live shapes' figures, the stalled requests flagged.
  const row = page
    .getByRole('table', { name: 'Live shapes' })
    .getByRole('row')
    .filter({ hasText: SHAPES.items.handle })
  for (const text of [
    '12',
    '2 stalled',
    '120',
    '1.5 MiB',
    '45',
    '1,500',
    '500 beyond rows',
    'Schema changed',
  ])
    await expect(row).toContainText(text)
  const shapes = page.getByRole('region', { name: 'Live shapes' })
  await shapes.getByRole('button', { name: 'Clients' }).click()
  await expect(
    page.getByRole('table', { name: 'Live shapes' }).getByRole('row').nth(1),
  ).toContainText(SHAPES.orders.handle)

  // The invalidation log, newest first, 50 at a time.
  const log = page.getByRole('table', { name: 'Invalidations' })
  const first = log.getByRole('row').nth(1)
  await expect(first).toContainText('Subquery dependency changed')
  await expect(first).toContainText(
    `${NEWEST_INVALIDATION.table} where ${NEWEST_INVALIDATION.where}`,
  )
  await expect(first).toContainText('3.00 MiB')
  await expect(log.getByRole('row')).toHaveCount(1 + 50)
  await page
    .getByRole('region', { name: 'Invalidations' })
    .getByRole('button', { name: 'Show more' })
    .click()
  await expect(log.getByRole('row')).toHaveCount(1 + SEEDED.invalidations)
  for (const words of [
    'Cache cleared',
    'Slot lost',
    'Shape deleted',
    'Evicted',
  ])
    await expect(log.getByText(words).first()).toBeVisible()

  // The event reads as a sentence.
  await expect(
    page
      .getByRole('table', { name: 'Event Logs' })
      .getByText('Cache cleared: 12 shapes rotated.'),
  ).toBeVisible()

  // The confirm keeps its text and says what the clear touches.
  await page.getByRole('button', { name: 'Clear cache' }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog).toContainText(
    'Clearing the cache forces every shape of this source to be re-created.',
  )
  await expect(dialog).toContainText(
    'This rotates 2 shapes; 30 clients will refetch.',
  )
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await page
    .getByRole('button', { name: 'Delete', exact: true })
    .first()
    .click()
  await expect(page.getByRole('dialog')).toContainText(
    'This rotates 2 shapes; 30 clients will refetch.',
  )
})

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 740 } })

  test('the charts and the figures read without scrolling sideways', async ({
    page,
    signIn,
    baseURL,
  }) => {
    await signIn()
    await seededSourcePage(page, baseURL ?? '')
    const figures = await expectCharts(page)
    for (const name of CHARTS) {
      const box = await figures.getByRole('figure', { name }).boundingBox()
      expect(box).not.toBeNull()
      expect(box!.x).toBeGreaterThanOrEqual(0)
      expect(box!.x + box!.width).toBeLessThanOrEqual(375)
    }
    const shapes = page.getByRole('list', { name: 'Live shapes' })
    await expect(shapes.getByText('2 stalled')).toBeVisible()
    const newest = page
      .getByRole('list', { name: 'Invalidations' })
      .getByRole('listitem')
      .first()
    await expect(newest).toContainText('Subquery dependency changed')
    await expect(newest).toContainText(NEWEST_INVALIDATION.where)
    await expectNoSidewaysScroll(page, 375)
  })
})

test('with no figures it says so, and offline it charts the last-known figures', async ({
  browser,
}) => {
  test.setTimeout(180_000)
  const server = await startOwnServer()
  const context = await browser.newContext({ baseURL: server.url })
  const pageErrors: string[] = []
  context.on('weberror', (e) => pageErrors.push(e.error().message))
  try {
    const name = `Otto ${crypto.randomUUID().slice(0, 8)}`
    const login = await context.request.post('/api/public/auth/local/login', {
      data: { name, email: `${name.replace(' ', '-')}@example.com` },
      headers: { origin: server.url },
    })
    expect(login.status()).toBe(200)
    const { teamId, sourceId } = await addSource(context.request, server.url)
    let page = await context.newPage()
    await page.goto(`/teams/${teamId}/${sourceId}`)
    await expect(page.getByText(EMPTY)).toBeVisible()

    await seedFigures(server.db, sourceId)
    await expectCharts(page)
    await waitForControl(page)
    await page.close()

    await server.stop()
    page = await context.newPage()
    await page.goto(`/teams/${teamId}/${sourceId}`)
    await expect(
      page.getByText('Offline, showing last-known data'),
    ).toBeVisible()
    await expectCharts(page)
    expect(pageErrors).toEqual([])
  } finally {
    await context.close()
    await server.destroy()
  }
})
