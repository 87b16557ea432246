// The validation page as both its specs drive it: fill the URL, submit, read the panel's rows.
import { expect, type Page } from '@playwright/test'

export const VALIDATION_PATH = '/validate-postgres-for-electric-cloud'
export const UNKNOWN = 'Unknown - cannot check until connected'

export async function submit(page: Page, url: string) {
  await page.getByLabel('Database URL').fill(url)
  await page.getByRole('button', { name: 'Validate Connection' }).click()
}

export const panelOf = (page: Page) =>
  page.getByRole('region', { name: 'Validation results' })

/** One check row: its status icon and its description. */
export async function expectRow(
  page: Page,
  label: string,
  status: 'Passed' | 'Failed' | 'Unknown',
  description: string,
) {
  const row = panelOf(page)
    .getByRole('list', { name: 'Checks' })
    .getByRole('listitem')
    .filter({ has: page.getByText(label, { exact: true }) })
  await expect(row.getByRole('img', { name: status })).toBeVisible()
  await expect(row).toContainText(description)
}
