// The first provider end to end, against the e2e run's fake Supabase and a real
// database: connect the account by OAuth, pick organization and project, type the credentials,
// validate, create, and watch the source go active. Also the redirects, the not-connected and
// empty states, an API error and the IPv6-only message.
import { expect, test } from './support/fixtures.ts'
import {
  allowFailedRequests,
  control,
  expectBreadcrumbs,
} from './support/provider-fakes.ts'
import {
  controlPlaneUrl,
  createSourceDatabase,
  slotCount,
  type SourceDatabase,
} from './support/source-databases.ts'

// The run's one fake Supabase is global state (reset and seeded per test): this file's tests run
// one after another in one worker, never beside each other.
test.describe.configure({ mode: 'default' })

// The e2e server's SUPABASE_DB_HOST_TEMPLATE points every project at its own cluster, so the
// database lives there.
let database: SourceDatabase

test.beforeAll(async () => {
  database = await createSourceDatabase(controlPlaneUrl())
})
test.afterAll(async () => {
  await database.drop()
})

test.beforeEach(async () => {
  await control('supabase', 'reset')
  await control('supabase', 'seed', {
    organizations: [
      { id: '1', slug: 'zeta-org', name: 'Zeta' },
      { id: '2', slug: 'acme-org', name: 'Acme' },
    ],
    projects: {
      'acme-org': [
        { ref: 'shopref0001', name: 'Shop', region: 'eu-west-1' },
        { ref: 'blogref0002', name: 'Blog', region: 'us-east-1' },
      ],
      'zeta-org': [],
    },
  })
})

test('from the tile to an active source: connect, organization, project, validate, create', async ({
  page,
  signIn,
  baseURL,
}) => {
  await signIn()
  await page.goto('/sources/new')
  await page.getByRole('link', { name: 'Connect with Supabase' }).click()
  await expect(page).toHaveURL(/\/sources\/new\/supabase$/)
  await expectBreadcrumbs(page, ['Supabase'])

  // Not connected: the connect button (OAuth is configured) and the token form, no error.
  await expect(page.getByLabel('Supabase access token')).toBeVisible()
  await expect(
    page.getByRole('link', {
      name: 'https://supabase.com/dashboard/account/tokens',
    }),
  ).toBeVisible()
  await page.getByRole('link', { name: 'Connect Supabase' }).click()

  // Back from the provider on the page it left, the organizations sorted by name.
  await expect(page).toHaveURL(/\/sources\/new\/supabase$/)
  const orgs = page.getByRole('radiogroup', { name: 'Organization' })
  await expect(orgs.getByRole('radio')).toHaveCount(2)
  await expect(orgs.locator('label')).toHaveText(['Acme', 'Zeta'])
  await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled()
  await orgs.getByRole('radio', { name: 'Acme' }).check()
  await page.getByRole('button', { name: 'Continue' }).click()

  await expect(page).toHaveURL(/\/sources\/new\/supabase\/acme-org$/)
  await expectBreadcrumbs(page, ['Supabase', 'Project'])
  await expect(page.getByLabel('Database user')).toHaveValue('postgres')
  await expect(page.getByLabel('Database name')).toHaveValue('postgres')
  await page.getByRole('radio', { name: /Shop/ }).check()
  await page.getByLabel('Database user').fill(database.name)
  await page.getByLabel('Database name').fill(database.name)
  await page.getByLabel('Database password').fill(database.password)
  await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled()
  await page.getByRole('button', { name: 'Validate Connection' }).click()
  await expect(
    page.getByText('Database is correctly configured for the sync engine!'),
  ).toBeVisible()

  // Changing a field clears the success; validating again brings it back.
  await page.getByLabel('Database password').fill(`${database.password}x`)
  await expect(
    page.getByText('Database is correctly configured for the sync engine!'),
  ).toBeHidden()
  await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled()
  await page.getByLabel('Database password').fill(database.password)
  await page.getByRole('button', { name: 'Validate Connection' }).click()
  await page.getByRole('button', { name: 'Continue' }).click()

  await expect(page).toHaveURL(/\/sources\/new\/source-configuration/)
  await expectBreadcrumbs(page, ['Supabase', 'Project', 'Source Configuration'])
  const details = page.getByRole('region', { name: 'Database details' })
  await expect(details).toContainText('Acme')
  await expect(details).toContainText('Shop')
  await expect(details).toContainText(database.name)
  await expect(details).not.toContainText(database.password)
  // The draft in storage never holds the password.
  const stored = await page.evaluate(() => JSON.stringify(sessionStorage))
  expect(stored).toContain('acme-org')
  expect(stored).not.toContain(database.password)

  // Back goes to the provider's start, the organization still picked.
  await page.getByRole('link', { name: 'Back' }).click()
  await expect(page).toHaveURL(/\/sources\/new\/supabase$/)
  await expect(page.getByRole('radio', { name: 'Acme' })).toBeChecked()
  await page.getByRole('button', { name: 'Continue' }).click()
  await page.getByRole('radio', { name: /Shop/ }).check()
  await page.getByLabel('Database user').fill(database.name)
  await page.getByLabel('Database name').fill(database.name)
  await page.getByLabel('Database password').fill(database.password)
  await page.getByRole('button', { name: 'Validate Connection' }).click()
  await page.getByRole('button', { name: 'Continue' }).click()

  await page.getByRole('button', { name: 'Create source' }).click()
  await expect(page).toHaveURL(/\/teams\/[0-9a-f-]{36}\/[0-9a-f-]{36}$/)
  await expect(page.getByRole('article').locator('.MuiChip-root')).toHaveText(
    'active',
  )
  // The draft is cleared.
  expect(
    await page.evaluate(() => sessionStorage.getItem('sluice.source-draft')),
  ).toBeNull()

  // The database is on the control plane's cluster: delete the source so its slot goes.
  const sourceId = new URL(page.url()).pathname.split('/').at(-1) ?? ''
  const deleted = await page.request.delete(`/api/v1/sources/${sourceId}`, {
    headers: { origin: baseURL ?? '' },
  })
  expect(deleted.ok()).toBe(true)
  await expect.poll(() => slotCount(database)).toBe(0)
})

test('the project page without its organization picked goes back to the start', async ({
  page,
  signIn,
}) => {
  await signIn()
  await page.goto('/sources/new/supabase/acme-org')
  await expect(page).toHaveURL(/\/sources\/new\/supabase$/)
  await expect(page.getByLabel('Supabase access token')).toBeVisible()
})

test('a pasted token connects; an organization without projects says so', async ({
  page,
  signIn,
}) => {
  await control('supabase', 'addPersonalToken', 'sbp_e2e_personal')
  await signIn()
  await page.goto('/sources/new/supabase')
  await page.getByLabel('Supabase access token').fill('sbp_e2e_personal')
  await page.getByRole('button', { name: 'Save token' }).click()
  await page.getByRole('radio', { name: 'Zeta' }).check()
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(
    page.getByText('No projects found for this organization.'),
  ).toBeVisible()

  // With no organizations at all.
  await control('supabase', 'seed', { organizations: [] })
  await page.getByRole('link', { name: 'Back' }).click()
  await expect(
    page.getByText('No organizations found for the connected accounts.'),
  ).toBeVisible()

  // /preferences names the connection, and Disconnect asks first.
  await page.goto('/preferences')
  const row = page.getByRole('group', { name: 'Supabase' })
  await expect(row).toContainText('Connected with a personal token since')
  await row.getByRole('button', { name: 'Disconnect' }).click()
  await page
    .getByRole('dialog')
    .getByRole('button', { name: 'Disconnect' })
    .click()
  await expect(row).toContainText('Not connected')
})

test("an API error reads as the list's own text, in red", async ({
  page,
  signIn,
  consoleErrors,
}) => {
  await control('supabase', 'addPersonalToken', 'sbp_e2e_failing')
  await signIn()
  await page.goto('/sources/new/supabase')
  await page.getByLabel('Supabase access token').fill('sbp_e2e_failing')
  await page.getByRole('button', { name: 'Save token' }).click()
  await expect(page.getByRole('radio', { name: 'Acme' })).toBeVisible()

  // Supabase fails from now on: the list is read 1 + 3 times, then the error shows.
  await control('supabase', 'fail', '/v1/organizations', 500)
  await page.reload()
  await expect(
    page.getByText(
      'Error loading organizations: Failed to fetch organizations',
    ),
  ).toBeVisible()
  await expect(page.getByText('Error loading organizations:')).toHaveCSS(
    'color',
    'rgb(211, 47, 47)',
  )
  allowFailedRequests(consoleErrors, 502, '/api/public/supabase/organizations')
})

test('a Supabase direct host this server cannot reach gets the IPv6-only explanation', async ({
  page,
  signIn,
}) => {
  // The e2e server's template points at its own cluster; Supabase's real direct host (which
  // cannot resolve here) is checked where a user pastes it.
  await signIn()
  await page.goto('/sources/new')
  await page
    .getByLabel('Connection string')
    .fill(
      'postgresql://postgres:pw@db.abcdefghijklmnop.supabase.co:5432/postgres?sslmode=require',
    )
  await page.getByRole('button', { name: 'Validate Connection String' }).click()
  await expect(
    page.getByText(/Supabase's direct database host is IPv6-only/),
  ).toBeVisible()
})
