// The Shape Explorer's shapes end to end, against real source databases run by the
// real engine: rows live as Postgres changes, Enter and Tab in the where field, no request for
// a clause already asked, aborted requests, the URL reopening a shape, and the "Use this
// shape" snippet run as an app would run it.
import type { Page, Request } from '@playwright/test'
import { collectConsoleErrors, expect, test } from './support/fixtures.ts'
import {
  gridRows,
  shapeGrid,
  tableButton,
  tableField,
  WARNING_2000,
  whereField,
} from './support/explorer.ts'
import {
  openItemsShape,
  useExplorerSources,
} from './support/explorer-sources.ts'
import { firstLogOf } from './support/run-snippet.ts'

const sources = useExplorerSources()

/** The `where` of every row-count request the page makes, in order. */
function countRequests(page: Page): string[] {
  const wheres: string[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.pathname.endsWith('/count'))
      wheres.push(url.searchParams.get('where') ?? '')
  })
  return wheres
}

test('rows inserted, updated and deleted in Postgres show in the grid live', async ({
  page,
  signIn,
  baseURL,
}) => {
  const { database } = await sources.withItemsSource(page, signIn, baseURL)
  await openItemsShape(page, 'id <= 25', 25)
  await database.admin.query(`insert into items values (0, 'live-row', 7)`)
  await expect(shapeGrid(page)).toContainText('1–10 of 26')
  // A new row comes last: page 3 of 26 rows.
  const next = page.getByRole('button', { name: 'Go to next page' })
  await next.click()
  await next.click()
  await expect(shapeGrid(page)).toContainText('21–26 of 26')
  await expect(shapeGrid(page).getByText('live-row')).toBeVisible()
  await database.admin.query(
    `update items set label = 'changed-row' where id = 0`,
  )
  await expect(shapeGrid(page).getByText('changed-row')).toBeVisible()
  await database.admin.query(`delete from items where id = 0`)
  await expect(shapeGrid(page)).toContainText('of 25')
  await expect(shapeGrid(page).getByText('changed-row')).toHaveCount(0)
})

test("deleting the grid's shape on the source page rotates it: the grid refetches and stays live", async ({
  page,
  signIn,
  baseURL,
  browser,
  context,
}) => {
  const { database, team, source } = await sources.withItemsSource(
    page,
    signIn,
    baseURL,
  )
  // The handle of each snapshot the grid's stream asks for.
  const handles: string[] = []
  page.on('response', (response) => {
    const url = new URL(response.url())
    if (url.pathname !== '/v1/shape' || url.searchParams.get('offset') !== '-1')
      return
    const handle = response.headers()['electric-handle']
    if (response.status() === 200 && handle) handles.push(handle)
  })
  await openItemsShape(page, 'id <= 25', 25)
  expect(handles).toHaveLength(1)
  const first = handles[0] ?? ''

  // The same user in a browser of their own (not a second tab of this one, whose closing
  // can make PGlite's tab coordination log in this tab): the source page lists the grid's
  // shape, and deletes it.
  const other = await browser.newContext({
    storageState: await context.storageState(),
  })
  try {
    const sourcePage = await other.newPage()
    const errors = collectConsoleErrors(sourcePage)
    await sourcePage.goto(`/teams/${team.id}/${source.id}`)
    const row = sourcePage
      .getByRole('table', { name: 'Live shapes' })
      .getByRole('row')
      .filter({ hasText: first })
    await expect(row).toContainText('id <= 25')
    await row.getByRole('button', { name: 'Delete' }).click()
    const dialog = sourcePage.getByRole('dialog')
    await dialog.getByRole('button', { name: 'Delete' }).click()
    // The open dialog hides the table from the accessibility tree: the row counts only after.
    await expect(dialog).toBeHidden()
    await expect(row).toHaveCount(0)
    expect(errors).toEqual([])
  } finally {
    await other.close()
  }

  // The grid's stream got its 409, fetched the shape afresh under a new handle, and is live.
  await expect.poll(() => handles.length).toBe(2)
  expect(handles[1]).not.toBe(first)
  await expect(shapeGrid(page)).toContainText('1–10 of 25')
  await database.admin.query(
    `insert into items values (0, 'after-rotation', 7)`,
  )
  await expect(shapeGrid(page)).toContainText('1–10 of 26')
})

test('Enter submits; Tab in an empty where field fills in the last where clause', async ({
  page,
  signIn,
  baseURL,
}) => {
  await sources.withItemsSource(page, signIn, baseURL)
  await openItemsShape(page, 'id <= 25', 25)
  await tableButton(page, 'notes').click()
  await expect(tableField(page)).toHaveValue('notes')
  await expect(shapeGrid(page)).toContainText('1–3 of 3')
  await expect(whereField(page)).toHaveValue('')
  await whereField(page).focus()
  await page.keyboard.press('Tab')
  await expect(whereField(page)).toHaveValue('id <= 25')
  await expect(whereField(page)).toBeFocused()
  await whereField(page).fill('id <= 2')
  await page.keyboard.press('Enter')
  await expect(shapeGrid(page)).toContainText('1–2 of 2')
  // The field keeps the focus after Enter; with text in it, Tab moves on as usual.
  await expect(whereField(page)).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(whereField(page)).not.toBeFocused()
  await expect(whereField(page)).toHaveValue('id <= 2')
})

test('re-submitting the same where clause makes no request', async ({
  page,
  signIn,
  baseURL,
}) => {
  await sources.withItemsSource(page, signIn, baseURL)
  const counts = countRequests(page)
  const snapshots: string[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.pathname === '/v1/shape' && url.searchParams.get('offset') === '-1')
      snapshots.push(url.searchParams.get('where') ?? '')
  })
  await openItemsShape(page, 'id <= 25', 25)
  await whereField(page).press('Enter')
  await whereField(page).fill('id <= 25 ')
  await whereField(page).press('Enter')
  // Coming back to the table brings its shape back, unasked.
  await tableButton(page, 'notes').click()
  await expect(shapeGrid(page)).toContainText('1–3 of 3')
  await tableButton(page, 'items').click()
  await expect(whereField(page)).toHaveValue('id <= 25')
  await expect(shapeGrid(page)).toContainText('1–10 of 25')
  // Something that does ask, so every request made before it has been seen.
  await whereField(page).fill('id <= 30')
  await whereField(page).press('Enter')
  await expect(shapeGrid(page)).toContainText('1–10 of 30')
  expect(counts).toEqual(['', 'id <= 25', '', 'id <= 30'])
  // Streams restart as the shape on screen changes, never for the same clause again.
  expect(snapshots).toEqual(['id <= 25', '', 'id <= 25', 'id <= 30'])
})

test('a newer request aborts the older, which then shows nothing', async ({
  page,
  signIn,
  baseURL,
}) => {
  await sources.withItemsSource(page, signIn, baseURL)
  const held: Array<() => Promise<void>> = []
  await page.route('**/count?*', async (route) => {
    const where = new URL(route.request().url()).searchParams.get('where')
    if (where !== 'qty >= 0') return route.continue()
    // Held until the test lets it go; by then the page has given up on it.
    held.push(() => route.continue().catch(() => {}))
  })
  const aborted = page.waitForEvent(
    'requestfailed',
    (request: Request) =>
      new URL(request.url()).searchParams.get('where') === 'qty >= 0',
  )
  await page.goto('/shape-explorer')
  await tableButton(page, 'items').click()
  await expect(page.getByText(WARNING_2000)).toBeVisible()
  await whereField(page).fill('qty >= 0')
  await whereField(page).press('Enter')
  await expect.poll(() => held.length).toBe(1)
  await expect(page.getByText('Loading...')).toBeVisible()
  await whereField(page).fill('id <= 25')
  await whereField(page).press('Enter')
  expect((await aborted).failure()?.errorText).toContain('ABORTED')
  await expect(shapeGrid(page)).toContainText('1–10 of 25')
  for (const release of held) await release()
  await expect(page.getByRole('alert')).toHaveCount(0)
  await expect(shapeGrid(page)).toContainText('1–10 of 25')
})

test('the URL reopens the same shape, and back and forward step through shapes', async ({
  page,
  signIn,
  baseURL,
}) => {
  await sources.withItemsSource(page, signIn, baseURL)
  await openItemsShape(page, 'id <= 25', 25)
  const url = page.url()
  expect(new URL(url).searchParams.get('where')).toBe('id <= 25')
  expect(new URL(url).searchParams.get('table')).toBe('public.items')

  // Opened afresh, as a bookmark or a shared link is. Not in a second tab: closing one can
  // make PGlite's tab coordination log "Channel is closed" in the other (src/app/db's).
  await page.goto('/sources')
  await page.goto(url)
  await expect(tableField(page)).toHaveValue('items')
  await expect(whereField(page)).toHaveValue('id <= 25')
  await expect(shapeGrid(page)).toContainText('1–10 of 25')

  await whereField(page).fill('id <= 12')
  await whereField(page).press('Enter')
  await expect(shapeGrid(page)).toContainText('1–10 of 12')
  await page.goBack()
  await expect(whereField(page)).toHaveValue('id <= 25')
  await expect(shapeGrid(page)).toContainText('1–10 of 25')
  await page.goForward()
  await expect(whereField(page)).toHaveValue('id <= 12')
  await expect(shapeGrid(page)).toContainText('1–10 of 12')
})

test('the ShapeStream snippet, run as copied, returns the grid’s rows', async ({
  page,
  signIn,
  baseURL,
  context,
}) => {
  const { source } = await sources.withItemsSource(page, signIn, baseURL)
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await openItemsShape(page, 'id <= 12', 12)
  const panel = page.getByRole('region', { name: 'Use this shape' })
  await panel.getByRole('tab', { name: 'ShapeStream' }).click()
  const shown = panel.getByLabel('ShapeStream snippet')
  // On screen the secret is masked; the copy holds it whole.
  await expect(shown).toContainText(
    `${source.secret.slice(0, 3)}***${source.secret.slice(-3)}`,
  )
  await expect(shown).not.toContainText(source.secret)
  await panel.getByRole('button', { name: 'Copy ShapeStream' }).click()
  const copied = await page.evaluate(() => navigator.clipboard.readText())
  expect(copied).toContain(source.secret)
  expect(copied).toContain(`${baseURL}/v1/shape`)

  const [rows] = (await firstLogOf(copied)) as [
    Array<{ id: number; label: string; qty: number }>,
  ]
  expect(rows.map((row) => row.id).sort((a, b) => a - b)).toEqual(
    Array.from({ length: 12 }, (_, i) => i + 1),
  )
  // The grid's first page shows the same rows.
  const firstPage = await gridRows(page)
    .locator('[data-field="label"]')
    .allTextContents()
  expect(firstPage).toHaveLength(10)
  for (const label of firstPage)
    expect(rows.map((row) => row.label)).toContain(label)
})
