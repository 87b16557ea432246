// The public validation page in the browser: its texts, an empty submit, and the
// results panel for each kind of answer.
//
// These page-level tests answer the endpoint with page.route, to reach every state of the panel
// (diagnostics, a 400, the in-flight button) on demand; validate-real.spec.ts runs the real
// endpoint against real databases. Keep stubs like these to this file.
import type { Page, Route } from '@playwright/test'
import type { DatabaseValidation } from '../src/shared/validation.ts'
import { VALIDATE_DATABASE_URL_PATH } from '../src/shared/validation.ts'
import { expect, test } from './support/fixtures.ts'
import {
  expectRow,
  panelOf,
  submit,
  UNKNOWN,
  VALIDATION_PATH,
} from './support/validation-page.ts'

// A registered service worker would take the page's fetches out of page.route's sight.
test.use({ serviceWorkers: 'block' })

const ready: DatabaseValidation = {
  has_replication_permissions: true,
  has_logical_wal: true,
  can_connect: true,
  can_connect_without_replication: true,
  has_create_privilege: true,
}

/** Answers the endpoint with `respond` and records every request body it gets. */
async function stubEndpoint(
  page: Page,
  respond: (route: Route) => Promise<void>,
): Promise<unknown[]> {
  const bodies: unknown[] = []
  await page.route(`**${VALIDATE_DATABASE_URL_PATH}`, async (route) => {
    bodies.push(route.request().postDataJSON())
    await respond(route)
  })
  return bodies
}

const answer =
  (json: unknown, status = 200) =>
  (route: Route) =>
    route.fulfill({ status, json })

test('the page shows its texts, and an empty URL submits nothing', async ({
  page,
}) => {
  const bodies = await stubEndpoint(page, answer(ready))
  await page.goto(VALIDATION_PATH)
  await expect(
    page.getByRole('heading', { name: 'Validate Database Connection' }),
  ).toBeVisible()
  await expect(
    page.getByText(
      'Check your database connection and ensure it is ready for the sync engine.',
    ),
  ).toBeVisible()
  const field = page.getByLabel('Database URL')
  await expect(field).toHaveAttribute('placeholder', /^postgresql:\/\/.+@.+\//)
  await expect(
    page.getByRole('link', { name: 'What does the database need?' }),
  ).toHaveAttribute('href', /^https:\/\/electric-sql\.com\/docs\//)
  await expect(
    page.getByText('Note: Your database credentials are never stored.'),
  ).toBeVisible()

  await page.getByRole('button', { name: 'Validate Connection' }).click()
  await field.fill('   ')
  await field.press('Enter')
  // A real submit afterwards is the first and only request the endpoint sees.
  await submit(page, ' postgresql://app:secret@db.example.com:5432/shop ')
  await expect(panelOf(page)).toBeVisible()
  expect(bodies).toEqual([
    { database_url: 'postgresql://app:secret@db.example.com:5432/shop' },
  ])
})

test('a ready database: the success banner and every check passed', async ({
  page,
}) => {
  await stubEndpoint(page, answer(ready))
  await page.goto(VALIDATION_PATH)
  await submit(page, 'postgresql://app:secret@db.example.com/shop')
  await expect(
    panelOf(page).getByText(
      'Database is correctly configured for the sync engine!',
    ),
  ).toBeVisible()
  await expectRow(
    page,
    'Connection',
    'Passed',
    'Successfully connected to database',
  )
  await expectRow(
    page,
    'Replication Permissions',
    'Passed',
    'User has replication permissions',
  )
  await expectRow(
    page,
    'CREATE Privilege',
    'Passed',
    'User has CREATE privilege',
  )
  await expectRow(page, 'WAL Level', 'Passed', 'WAL level is set to logical')
  await expect(panelOf(page).getByText('To fix these issues')).toHaveCount(0)
})

test('nothing connected: Connection Failed with its checklist, other checks unknown', async ({
  page,
}) => {
  await stubEndpoint(
    page,
    answer({
      ...ready,
      has_replication_permissions: false,
      has_logical_wal: false,
      can_connect: false,
      can_connect_without_replication: false,
      has_create_privilege: false,
      connection_error: 'password authentication failed for user "app"',
    }),
  )
  await page.goto(VALIDATION_PATH)
  await submit(page, 'postgresql://app:wrong@db.example.com/shop')
  const failed = panelOf(page)
    .getByRole('alert')
    .filter({ hasText: 'Connection Failed' })
  await expect(failed).toContainText(
    'The database server is running and reachable',
  )
  await expect(failed).toContainText('The username and password are correct')
  await expect(failed).toContainText('The database exists')
  await expect(failed).toContainText('sslmode parameter matching the server')
  await expect(failed).toContainText('Firewall rules allow')
  await expectRow(
    page,
    'Connection',
    'Failed',
    'password authentication failed for user "app"',
  )
  await expectRow(page, 'Replication Permissions', 'Unknown', UNKNOWN)
  await expectRow(page, 'CREATE Privilege', 'Unknown', UNKNOWN)
  await expectRow(page, 'WAL Level', 'Unknown', UNKNOWN)
  await expect(panelOf(page).getByText('To fix these issues')).toHaveCount(0)
})

test('replication refused: the replication-mode Connection Failed and the REPLICATION step', async ({
  page,
}) => {
  await stubEndpoint(
    page,
    answer({
      ...ready,
      has_replication_permissions: false,
      can_connect: false,
      connection_error:
        'must be superuser or replication role to start walsender',
    }),
  )
  await page.goto(VALIDATION_PATH)
  await submit(page, 'postgresql://app:secret@db.example.com/shop')
  const failed = panelOf(page)
    .getByRole('alert')
    .filter({ hasText: 'Connection Failed' })
  await expect(failed).toContainText(
    'A normal connection works, but a replication connection does not.',
  )
  await expect(failed).toContainText(
    'REPLICATION attribute, or membership of a role that has it',
  )
  await expect(failed).toContainText(
    'direct connection to the database, not a connection pooler',
  )
  await expectRow(
    page,
    'Replication Permissions',
    'Failed',
    'User does not have replication permissions',
  )
  await expectRow(page, 'WAL Level', 'Passed', 'WAL level is set to logical')
  const steps = panelOf(page)
    .getByRole('alert')
    .filter({ hasText: 'To fix these issues' })
    .getByRole('listitem')
  await expect(steps).toHaveCount(1)
  await expect(steps.first()).toContainText(
    '1. Give the user the REPLICATION attribute',
  )
  await expect(steps.first()).toContainText('ALTER USER app WITH REPLICATION;')
})

test('missing CREATE and logical WAL: two steps, renumbered, naming the real user and database', async ({
  page,
}) => {
  await stubEndpoint(
    page,
    answer({ ...ready, has_create_privilege: false, has_logical_wal: false }),
  )
  await page.goto(VALIDATION_PATH)
  await submit(
    page,
    'postgresql://shop_owner:secret@db.example.com:5432/Shop%20DB',
  )
  await expectRow(
    page,
    'Connection',
    'Passed',
    'Successfully connected to database',
  )
  await expectRow(
    page,
    'CREATE Privilege',
    'Failed',
    'User does not have CREATE privilege',
  )
  await expectRow(
    page,
    'WAL Level',
    'Failed',
    'WAL level is not set to logical',
  )
  const steps = panelOf(page)
    .getByRole('alert')
    .filter({ hasText: 'To fix these issues' })
    .getByRole('listitem')
  await expect(steps).toHaveCount(2)
  await expect(steps.nth(0)).toContainText(/^1\. /)
  await expect(steps.nth(0)).toContainText(
    'GRANT CREATE ON DATABASE "Shop DB" TO shop_owner;',
  )
  await expect(steps.nth(1)).toContainText(
    /^2\. Set wal_level = logical.*restart the server/,
  )
  await expect(panelOf(page).getByText('ALTER USER')).toHaveCount(0)
})

test("the server's diagnostics: its user and database in the steps, its findings as warnings", async ({
  page,
}) => {
  await stubEndpoint(
    page,
    answer({
      ...ready,
      has_create_privilege: false,
      diagnostics: {
        free_replication_slots: 0,
        max_wal_senders: 10,
        is_read_replica: false,
        pooler_host: true,
        suggested_direct_host: 'db.abcdef.supabase.co',
        server_version_num: 170004,
        user: 'postgres.abcdef',
        database: 'postgres',
      },
    }),
  )
  await page.goto(VALIDATION_PATH)
  await submit(page, 'postgresql://typed:secret@pooler.example.com:6543/typed')
  const steps = panelOf(page)
    .getByRole('alert')
    .filter({ hasText: 'To fix these issues' })
    .getByRole('listitem')
  await expect(steps).toHaveCount(1)
  await expect(steps.first()).toContainText(
    'GRANT CREATE ON DATABASE postgres TO "postgres.abcdef";',
  )
  const warnings = panelOf(page)
    .getByRole('alert')
    .filter({ hasNotText: 'To fix these issues' })
  await expect(warnings).toHaveCount(2)
  await expect(
    warnings.filter({ hasText: 'No free replication slots' }),
  ).toBeVisible()
  await expect(
    warnings.filter({ hasText: 'Use db.abcdef.supabase.co instead.' }),
  ).toBeVisible()
})

const REFUSED =
  'This host is not allowed: Sluice only checks databases on public internet addresses.'

test('a 400 (an address the server will not check) shows its message instead of a panel; the next submit clears it', async ({
  page,
  consoleErrors,
}) => {
  await stubEndpoint(page, (route) =>
    String(route.request().postData()).includes('169.254.169.254')
      ? answer({ message: REFUSED }, 400)(route)
      : answer(ready)(route),
  )
  await page.goto(VALIDATION_PATH)
  // A URL that parses: one that does not gets its message without a request.
  await submit(page, 'postgresql://app:secret@169.254.169.254/shop')
  const message = page.getByRole('alert').filter({ hasText: REFUSED })
  await expect(message).toBeVisible()
  await expect(panelOf(page)).toHaveCount(0)
  // Chromium logs the 400 this test asked for; the fixture still fails on any other error.
  const isThe400 = (e: string) => e.includes('status of 400')
  await expect.poll(() => consoleErrors.filter(isThe400).length).toBe(1)
  consoleErrors.splice(consoleErrors.findIndex(isThe400), 1)

  await submit(page, 'postgresql://app:secret@db.example.com:5432/shop')
  await expect(
    panelOf(page).getByText(
      'Database is correctly configured for the sync engine!',
    ),
  ).toBeVisible()
  await expect(message).toHaveCount(0)
})

test('while the call is in flight the button reads Validating... and is disabled', async ({
  page,
}) => {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  await stubEndpoint(page, async (route) => {
    await released
    await route.fulfill({ json: ready })
  })
  await page.goto(VALIDATION_PATH)
  await submit(page, 'postgresql://app:secret@db.example.com/shop')
  const busy = page.getByRole('button', { name: 'Validating...' })
  await expect(busy).toBeDisabled()
  release()
  await expect(
    page.getByRole('button', { name: 'Validate Connection' }),
  ).toBeEnabled()
  await expect(
    page.getByText('Database is correctly configured for the sync engine!'),
  ).toBeVisible()
})
