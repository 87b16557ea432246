import { expect, test } from './support/fixtures.ts'

test.use({ viewport: { width: 375, height: 740 } })

test('below 768px the sidebar is a drawer with an overlay', async ({
  page,
  signIn,
}) => {
  await signIn()
  await page.goto('/sources')
  await expect(page.getByRole('heading', { name: 'All Sources' })).toBeVisible()
  const nav = page.getByRole('navigation', { name: 'Main' })
  await expect(nav).toBeHidden()

  await page.getByRole('button', { name: 'Open navigation' }).click()
  await expect(nav).toBeVisible()
  await expect(nav.getByRole('link', { name: 'All Sources' })).toBeVisible()

  // The overlay closes it.
  await page
    .locator('.MuiBackdrop-root')
    .click({ position: { x: 350, y: 300 } })
  await expect(nav).toBeHidden()

  // So does navigating from it.
  await page.getByRole('button', { name: 'Open navigation' }).click()
  await nav.getByRole('link', { name: 'Preferences' }).click()
  await expect(page.getByRole('heading', { name: 'Preferences' })).toBeVisible()
  await expect(nav).toBeHidden()
})
