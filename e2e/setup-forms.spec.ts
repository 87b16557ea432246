// Setup links end to end: a member makes one on the team page; a visitor with no session opens
// it in a browser of their own, connects a real database and gets 'Source Added' with a curl
// that works (run here with /usr/bin/curl); the team page then shows the link used and the
// source live, and the link says it was used. A deleted link says so too.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import type { Browser, Page } from '@playwright/test'
import type { RunningPostgres } from '../src/server/platform/db/embedded-postgres.ts'
import { personalTeam } from './support/explorer.ts'
import { collectConsoleErrors, expect, test } from './support/fixtures.ts'
import {
  createSourceDatabase,
  startOwnPostgres,
  type SourceDatabase,
} from './support/source-databases.ts'

let usersServer: RunningPostgres
const databases: SourceDatabase[] = []

test.beforeAll(async () => {
  usersServer = await startOwnPostgres()
})
test.afterAll(async () => {
  // Emptied as it goes: a worker can run this file's tests in several stretches, each with
  // its own beforeAll and afterAll, and must not end a pool twice.
  for (const database of databases.splice(0)) await database.admin.end()
  await usersServer.stop()
})

/** A database ready for the engine, with a small table `items` its role owns. */
async function sourceDatabase(): Promise<SourceDatabase> {
  const database = await createSourceDatabase(usersServer.url)
  databases.push(database)
  await database.admin.query(`
    create table items (id int primary key, label text not null);
    insert into items values (1, 'first'), (2, 'second');
    alter table items owner to ${database.name};
  `)
  return database
}

/** Makes a link through the team page's dialog; answers it. */
async function createLink(page: Page, region?: string): Promise<string> {
  await page.getByRole('button', { name: 'Create setup link' }).click()
  const dialog = page.getByRole('dialog', { name: 'Create setup link' })
  await expect(dialog.getByLabel('Expires in (days)')).toHaveValue('7')
  if (region) {
    await dialog.getByRole('combobox', { name: 'Region' }).click()
    await page.getByRole('option', { name: region }).click()
  }
  await dialog.getByRole('button', { name: 'Create link' }).click()
  const link = await dialog
    .getByRole('textbox', { name: 'Setup link' })
    .inputValue()
  await dialog.getByRole('button', { name: 'Done' }).click()
  return link
}

/** A visitor with no session: a browser context of its own, failing on console errors. */
async function visitor(browser: Browser) {
  const context = await browser.newContext()
  const page = await context.newPage()
  const errors = collectConsoleErrors(page)
  return {
    page,
    async close() {
      await context.close()
      expect(errors, "the visitor's console errors").toEqual([])
    },
  }
}

test('a setup link made on the team page adds a database once, signed out, and its curl works', async ({
  page,
  signIn,
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000)
  await signIn()
  const team = await personalTeam(page.request)
  const database = await sourceDatabase()

  await page.goto(`/teams/${team.id}`)
  const link = await createLink(page)
  expect(link).toMatch(new RegExp(`^${baseURL}/setup/[0-9a-f-]{36}$`))
  const links = page.getByRole('table', { name: 'Setup links' })
  await expect(links.getByRole('cell', { name: 'Usable' })).toBeVisible()

  const guest = await visitor(browser)
  await guest.page.goto(link)
  const region = guest.page.getByRole('combobox', { name: 'Region' })
  await expect(region).toHaveText('Europe')
  await expect(
    guest.page.getByText('Note: the password is encrypted for storage.'),
  ).toBeVisible()
  await guest.page.getByLabel('Source URL').fill(database.url)
  await guest.page.getByRole('button', { name: 'Connect Source' }).click()
  await expect(
    guest.page.getByRole('heading', { name: 'Source Added' }),
  ).toBeVisible({ timeout: 30_000 })
  await expect(guest.page.locator('.MuiChip-root')).toHaveText('active', {
    timeout: 60_000,
  })
  const sourceId = (await guest.page
    .getByRole('button', { name: 'Copy Source ID' })
    .locator('xpath=..')
    .textContent())!.trim()
  expect(sourceId).toMatch(/^[0-9a-f-]{36}$/)
  await expect(
    guest.page.getByRole('link', { name: 'View source status' }),
  ).toHaveAttribute('href', `/source-status/${sourceId}`)

  // The command exactly as shown, through a shell as a reader would paste it.
  const curl = await guest.page.getByLabel('Sample curl command').textContent()
  expect(curl).toMatch(
    new RegExp(
      `^curl -i '${baseURL}/v1/shape\\?table=items&source_id=${sourceId}&source_secret=[^&']+&offset=-1'$`,
    ),
  )
  const { stdout } = await promisify(execFile)('/bin/sh', ['-c', curl ?? ''], {
    env: { PATH: '/usr/bin:/bin' },
  })
  expect(stdout).toMatch(/^HTTP\/1\.1 200/)
  const rows = JSON.parse(stdout.slice(stdout.indexOf('\r\n\r\n') + 4)) as {
    value?: { label: string }
  }[]
  expect(rows.flatMap((m) => (m.value ? [m.value.label] : []))).toEqual([
    'first',
    'second',
  ])

  // The team page follows along live: the link used, with its source, and the source active.
  await expect(links.getByRole('cell', { name: /^Used / })).toBeVisible()
  await expect(
    links.getByRole('link', { name: sourceId.slice(0, 8) }),
  ).toBeVisible()
  await expect(page.getByRole('article').locator('.MuiChip-root')).toHaveText(
    'active',
  )

  await guest.page.reload()
  await expect(
    guest.page.getByText('This setup form has already been used.'),
  ).toBeVisible()
  await guest.close()

  // The source goes, so its slot does not outlive the test.
  await page.close()
  const deleted = await page.request.delete(`/api/v1/sources/${sourceId}`, {
    headers: { origin: baseURL ?? '' },
  })
  expect(deleted.status()).toBe(200)
})

test('a preset region is fixed, a deleted link says so, and a wrong one fails to load', async ({
  page,
  signIn,
  browser,
}) => {
  await signIn()
  const team = await personalTeam(page.request)
  await page.goto(`/teams/${team.id}`)
  const link = await createLink(page, 'North America (us-east-1)')
  const formId = link.split('/').pop() ?? ''

  const guest = await visitor(browser)
  await guest.page.goto(link)
  const region = guest.page.getByRole('combobox', { name: 'Region' })
  await expect(region).toHaveText('North America')
  await expect(region).toHaveAttribute('aria-disabled', 'true')

  const links = page.getByRole('table', { name: 'Setup links' })
  await links
    .getByRole('button', { name: `Delete setup link ${formId}` })
    .click()
  const confirm = page.getByRole('dialog', { name: 'Delete setup link' })
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(confirm).toBeHidden()
  await expect(links.getByRole('cell', { name: /^Deleted / })).toBeVisible()
  await expect(
    links.getByRole('button', { name: `Delete setup link ${formId}` }),
  ).toBeDisabled()

  await guest.page.reload()
  await expect(
    guest.page.getByText('This setup form has been deleted.'),
  ).toBeVisible()
  // No form has such an id: the page says so without asking (a 404 is a console error).
  await guest.page.goto('/setup/not-a-form')
  await expect(
    guest.page.getByText('Failed to load setup form. It may not exist.'),
  ).toBeVisible()
  await guest.close()
})

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 740 } })

  test('each setup link is a block: its status and delete read without scrolling sideways', async ({
    page,
    signIn,
  }) => {
    await signIn()
    const team = await personalTeam(page.request)
    await page.goto(`/teams/${team.id}`)
    const link = await createLink(page)
    const formId = link.split('/').pop() ?? ''
    const links = page.getByRole('list', { name: 'Setup links' })
    const parts = [
      links.getByText('Status: Usable'),
      links.getByRole('button', { name: `Delete setup link ${formId}` }),
      links.getByText(/^Expires: /),
    ]
    for (const part of parts) {
      await expect(part).toBeVisible()
      const box = await part.boundingBox()
      expect(box).not.toBeNull()
      expect(box!.x).toBeGreaterThanOrEqual(0)
      expect(box!.x + box!.width).toBeLessThanOrEqual(375)
    }
    // A date on one line, not four.
    const expires = await links.getByText(/^Expires: /).boundingBox()
    expect(expires!.height).toBeLessThan(30)
    const pageWidth = await page.evaluate(
      () => document.documentElement.scrollWidth,
    )
    expect(pageWidth).toBeLessThanOrEqual(375)
  })
})
