// Source names and document titles: a source named in the wizard, renamed on its page (the
// card, the heading and the tab's title follow once the rename has synced), and each page's
// own title in the browser tab.
import type { Page } from '@playwright/test'
import { expect, test } from './support/fixtures.ts'

// Never reached: skip_validation lets the wizard create it without a database behind it.
const DATABASE_URL = 'postgresql://names@127.0.0.1:1/names_e2e'

async function createThroughWizard(page: Page, name: string) {
  await page.goto('/sources/new?skip_validation=true')
  await page.getByLabel('Connection string').fill(DATABASE_URL)
  await page.getByRole('button', { name: 'Next' }).click()
  await expect(page).toHaveURL(/\/sources\/new\/source-configuration/)
  await page.getByLabel('Name').fill(name)
  await page.getByRole('button', { name: 'Create source' }).click()
  await expect(page).toHaveURL(/\/teams\/[0-9a-f-]{36}\/[0-9a-f-]{36}$/)
}

test('a source named in the wizard, then renamed on its page', async ({
  page,
  signIn,
}) => {
  await signIn()
  await createThroughWizard(page, '  Orders  ')
  await expect(
    page.getByRole('heading', { name: 'Source: Orders', exact: true }),
  ).toBeVisible()
  await expect(page).toHaveTitle('Source: Orders · Sluice')
  await expect(page.getByRole('article', { name: 'Orders' })).toBeVisible()

  await page.getByRole('button', { name: 'Rename' }).click()
  const dialog = page.getByRole('dialog', { name: 'Rename source' })
  await expect(dialog.getByLabel('Name')).toHaveValue('Orders')
  await dialog.getByLabel('Name').fill('n'.repeat(201))
  await expect(
    dialog.getByText('Name must be at most 200 characters'),
  ).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled()
  await dialog.getByLabel('Name').fill('Billing replica')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toBeHidden()
  await expect(
    page.getByRole('heading', { name: 'Source: Billing replica' }),
  ).toBeVisible()
  await expect(page).toHaveTitle('Source: Billing replica · Sluice')
  const card = page.getByRole('article', { name: 'Billing replica' })
  await expect(
    card.getByRole('link', { name: 'Billing replica' }),
  ).toBeVisible()

  await page.getByRole('link', { name: 'All Sources' }).click()
  await expect(page).toHaveTitle('All Sources · Sluice')
  await expect(
    page
      .getByRole('article', { name: 'Billing replica' })
      .getByRole('link', { name: 'Billing replica' }),
  ).toBeVisible()

  // An empty name is no name: the source is called by its id again.
  const sourceId = await page
    .getByRole('article', { name: 'Billing replica' })
    .getByRole('link')
    .first()
    .getAttribute('href')
    .then((href) => href?.split('/').pop() ?? '')
  await page.getByRole('link', { name: 'Billing replica' }).click()
  await page.getByRole('button', { name: 'Rename' }).click()
  await dialog.getByLabel('Name').fill('')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(
    page.getByRole('heading', { name: `Source: ${sourceId}` }),
  ).toBeVisible()
  await expect(page).toHaveTitle(`Source: ${sourceId} · Sluice`)

  // The public status page names no source: its title is the page's own.
  await page.goto(`/source-status/${sourceId}`)
  await expect(page).toHaveTitle('Source status · Sluice')
})

test('every page has its own document title', async ({ page, signIn }) => {
  await page.goto('/')
  await expect(page).toHaveTitle('Welcome · Sluice')
  await page.goto('/validate-postgres-for-electric-cloud')
  await expect(page).toHaveTitle('Validate Database Connection · Sluice')
  await page.goto('/no/such/page')
  await expect(page).toHaveTitle('Page not found · Sluice')

  await signIn()
  for (const [path, title] of [
    ['/sources', 'All Sources'],
    ['/sources/new', 'Connect a Postgres database'],
    ['/preferences', 'Preferences'],
    ['/shape-explorer', 'Shape Explorer'],
  ] as const) {
    await page.goto(path)
    await expect(page).toHaveTitle(`${title} · Sluice`)
  }
  // Moving within the app changes it too, not only a fresh load.
  await page.getByRole('link', { name: 'All Sources' }).click()
  await expect(page).toHaveTitle('All Sources · Sluice')
})
