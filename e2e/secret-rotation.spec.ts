// Rotating a source's secret from its page: the previous secret's grace shown with its end, the
// proxy snippet following the new secret, and the grace ended early.
import { expect, test } from './support/fixtures.ts'

// Never reached: skip_validation lets the wizard create it without a database behind it.
const DATABASE_URL = 'postgresql://rotation@127.0.0.1:1/rotation_e2e'

test('a secret rotated, its previous one shown until its grace is ended', async ({
  page,
  signIn,
}) => {
  await signIn()
  await page.goto('/sources/new?skip_validation=true')
  await page.getByLabel('Connection string').fill(DATABASE_URL)
  await page.getByRole('button', { name: 'Next' }).click()
  await page.getByRole('button', { name: 'Create source' }).click()
  await expect(page).toHaveURL(/\/teams\/[0-9a-f-]{36}\/[0-9a-f-]{36}$/)

  const section = page.getByRole('region', { name: 'Secret and proxy' })
  await section.getByRole('tab', { name: 'Environment' }).click()
  const snippet = section.getByLabel('Environment snippet')
  await expect(snippet).toContainText(/SLUICE_SECRET=.{3}\*\*\*.{3}/)
  const before = /SLUICE_SECRET=(\S+)/.exec(
    (await snippet.textContent()) ?? '',
  )?.[1]

  await section.getByRole('button', { name: 'Rotate secret' }).click()
  const dialog = page.getByRole('dialog', { name: 'Rotate secret?' })
  await dialog.getByRole('button', { name: 'Rotate' }).click()
  await expect(dialog).toBeHidden()
  await expect(
    section.getByText(`The previous secret ${before} keeps working until`),
  ).toBeVisible()
  await expect(snippet).not.toContainText(`SLUICE_SECRET=${before}`)
  await expect(snippet).toContainText(/SLUICE_SECRET=.{3}\*\*\*.{3}/)

  await section.getByRole('button', { name: 'End grace now' }).click()
  const end = page.getByRole('dialog', { name: 'End the grace now?' })
  await end.getByRole('button', { name: 'End grace' }).click()
  await expect(end).toBeHidden()
  await expect(section.getByText('The previous secret')).toBeHidden()
})
