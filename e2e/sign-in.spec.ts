import { expect, test } from './support/fixtures.ts'

test('local sign-in, empty sources, preferences, logout', async ({ page }) => {
  await page.goto('/')
  await expect(
    page.getByRole('heading', { name: 'Welcome to Sluice' }),
  ).toBeVisible()
  await page.getByRole('link', { name: 'Sign in with GitHub' }).click()

  await expect(page).toHaveURL(/\/sign-in\/local$/)
  await expect(page.getByText('Local mode', { exact: true })).toBeVisible()
  await page.getByLabel('Name').fill('Grace Hopper')
  await page.getByLabel('Email').fill('grace@example.com')
  await page.getByRole('button', { name: 'Sign in' }).click()

  // A first sign-in is asked what they are building (onboarding.spec.ts); skipped here.
  await expect(page).toHaveURL(/\/welcome$/)
  await page.getByRole('button', { name: 'Skip' }).click()
  await expect(page).toHaveURL(/\/sources$/)
  await expect(page.getByRole('heading', { name: 'All Sources' })).toBeVisible()
  await page
    .getByRole('link', { name: 'Add Your First Postgres Database' })
    .waitFor()

  await page.getByRole('link', { name: 'Preferences' }).click()
  await expect(page).toHaveURL(/\/preferences$/)
  await expect(page.getByRole('heading', { name: 'Preferences' })).toBeVisible()
  const details = page.getByRole('table', { name: 'User details' })
  await expect(
    details.getByRole('row', { name: /Name\s+Grace Hopper/ }),
  ).toBeVisible()
  await expect(
    details.getByRole('row', { name: /Email\s+grace@example.com/ }),
  ).toBeVisible()
  await expect(details.getByRole('row', { name: /Created/ })).toBeVisible()

  await page.getByRole('button', { name: 'Logout' }).click()
  await expect(
    page.getByRole('link', { name: 'Sign in with Google' }),
  ).toBeVisible()
  expect(new URL(page.url()).pathname).toBe('/')

  // The session is gone: the dashboard sends the visitor back to the landing page.
  await page.goto('/sources')
  await expect(
    page.getByRole('link', { name: 'Sign in with GitHub' }),
  ).toBeVisible()
})

test('a signed-in visitor of the landing page goes to /sources', async ({
  page,
  signIn,
}) => {
  await signIn()
  await page.goto('/')
  await expect(page).toHaveURL(/\/sources$/)
})

test('the sidebar lists the personal team and its page shows the user', async ({
  page,
  signIn,
}) => {
  const user = await signIn()
  await page.goto('/sources')
  await page.getByRole('link', { name: `${user.name}'s team` }).click()
  await expect(
    page.getByRole('heading', { name: `${user.name}'s team` }),
  ).toBeVisible()
  await expect(page.getByText('No sources found for this team.')).toBeVisible()
  const users = page.getByRole('region', { name: 'Users' }).getByRole('table')
  await expect(
    users.getByRole('row', { name: `${user.name} ${user.email}` }),
  ).toBeVisible()
  await expect(page.getByText(/contact support/)).toBeVisible()
})

test('an unknown team shows Team not found', async ({ page, signIn }) => {
  await signIn()
  await page.goto('/teams/7d0f2a34-8a4f-4c55-9a57-3f1b5d7b2c11')
  await expect(
    page.getByRole('heading', { name: 'Team not found' }),
  ).toBeVisible()
  await page.goto('/teams/not-a-uuid')
  await expect(
    page.getByRole('heading', { name: 'Team not found' }),
  ).toBeVisible()
})

test('a signed-out visit does not ask the server who is signed in', async ({
  page,
}) => {
  const asked: string[] = []
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/public/auth/user')
      asked.push(r.url())
  })
  await page.goto('/')
  await expect(
    page.getByRole('link', { name: 'Sign in with GitHub' }),
  ).toBeVisible()
  await page.goto('/sources')
  await expect(
    page.getByRole('link', { name: 'Sign in with GitHub' }),
  ).toBeVisible()
  expect(asked).toEqual([])
})

test('in local mode the landing page says this server signs in with a name and an email', async ({
  page,
}) => {
  await page.goto('/')
  await expect(
    page.getByText(
      'Local mode: this server signs in with a name and an email.',
    ),
  ).toBeVisible()
})
