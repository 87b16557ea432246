// The team page's API tokens: create one (name and expiry), see it once and copy it, use it
// from a script (no cookie), see when it was last used, and revoke it, after which it answers
// 401.
import { expect, test } from './support/fixtures.ts'

/** YYYY-MM-DD `days` from now, as a date field holds it. */
const daysAhead = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)

test('a team member creates, uses and revokes an API token', async ({
  page,
  signIn,
  baseURL,
  context,
  playwright,
}) => {
  await signIn()
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const me = (await (await page.request.get('/api/v1/users/me')).json()) as {
    team_id: string
  }
  await page.goto(`/teams/${me.team_id}`)
  const section = page.getByRole('region', { name: 'API tokens' })
  await expect(section.getByText('No API tokens yet.')).toBeVisible()

  await section.getByRole('button', { name: 'Create API token' }).click()
  const dialog = page.getByRole('dialog', { name: 'Create API token' })
  await dialog.getByLabel('Name').fill('CI deploy')
  await dialog.getByLabel('Expires on (optional)').fill(daysAhead(30))
  await dialog.getByRole('button', { name: 'Create token' }).click()
  await expect(dialog.getByText('it will not be shown again')).toBeVisible()
  const token = await dialog
    .getByRole('textbox', { name: 'API token' })
    .inputValue()
  expect(token).toMatch(/^sluice_/)
  await dialog.getByRole('button', { name: 'Copy API token' }).click()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token)
  await dialog.getByRole('button', { name: 'Done' }).click()

  const row = section.getByRole('row', { name: /CI deploy/ })
  // Created, never used, expires in 30 days.
  await expect(row.getByRole('cell')).toHaveText([
    'CI deploy',
    /\d/,
    'Never',
    /\d/,
    'Revoke',
  ])
  await expect(page.getByText(token)).toHaveCount(0)

  const script = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: `Bearer ${token}` },
  })
  try {
    expect((await script.get('/api/v1/sources')).status()).toBe(200)
    await page.reload()
    await expect(row.getByRole('cell').nth(2)).not.toHaveText('Never')

    await row
      .getByRole('button', { name: 'Revoke API token CI deploy' })
      .click()
    const confirm = page.getByRole('dialog', { name: 'Revoke API token' })
    await confirm.getByRole('button', { name: 'Revoke' }).click()
    await expect(confirm).toBeHidden()
    await expect(section.getByText('No API tokens yet.')).toBeVisible()
    expect((await script.get('/api/v1/sources')).status()).toBe(401)
  } finally {
    await script.dispose()
  }
})

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 740 } })

  test('each API token is a block: its dates and revoke read without scrolling sideways', async ({
    page,
    signIn,
    baseURL,
  }) => {
    await signIn()
    const me = (await (await page.request.get('/api/v1/users/me')).json()) as {
      team_id: string
    }
    const made = await page.request.post(
      `/api/v1/teams/${me.team_id}/api-tokens`,
      { data: { name: 'phone deploy' }, headers: { origin: baseURL ?? '' } },
    )
    expect(made.status()).toBe(201)
    await page.goto(`/teams/${me.team_id}`)
    const tokens = page.getByRole('list', { name: 'API tokens' })
    const parts = [
      tokens.getByText('phone deploy'),
      tokens.getByRole('button', { name: 'Revoke API token phone deploy' }),
      tokens.getByText('Last used: Never'),
      tokens.getByText(/^Created: /),
    ]
    for (const part of parts) {
      await expect(part).toBeVisible()
      const box = await part.boundingBox()
      expect(box!.x).toBeGreaterThanOrEqual(0)
      expect(box!.x + box!.width).toBeLessThanOrEqual(375)
    }
    const pageWidth = await page.evaluate(
      () => document.documentElement.scrollWidth,
    )
    expect(pageWidth).toBeLessThanOrEqual(375)
  })
})
