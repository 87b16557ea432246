// The second provider end to end, against the e2e run's fake Neon and real
// databases: connect the account, pick project, branch, database and role, validate on the
// server, create, and watch the source go active. Also Back, the redirects, the not-connected
// and empty states, an API error, 'Retry Validation' and enabling logical replication.
import type { RunningPostgres } from '../src/server/platform/db/embedded-postgres.ts'
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
  startOwnPostgres,
  type SourceDatabase,
} from './support/source-databases.ts'

// The run's one fake Neon is global state (reset and seeded per test): this file's tests run
// one after another in one worker, never beside each other.
test.describe.configure({ mode: 'default' })

// On the control plane's cluster, whose certificate the server trusts: Neon's URIs ask for
// TLS (sslmode=prefer, which the engine's pg reads as verify-full).
let database: SourceDatabase
let walReplica: RunningPostgres | null = null

test.beforeAll(async () => {
  database = await createSourceDatabase(controlPlaneUrl())
})
test.afterAll(async () => {
  await database.drop()
  await walReplica?.stop()
})

function branch(
  id: string,
  name: string,
  isDefault: boolean,
  endpoint: { host: string; port: number },
  db: { name: string; owner: string; password: string },
) {
  return {
    id,
    name,
    default: isDefault,
    databases: [{ id: 1, name: db.name, owner_name: db.owner }],
    roles: [
      { name: 'reader', password: 'not-a-real-role' },
      { name: db.owner, password: db.password },
    ],
    endpoint,
  }
}

function seedProjects() {
  const port = Number(new URL(controlPlaneUrl()).port)
  const endpoint = { host: 'localhost', port }
  const db = {
    name: database.name,
    owner: database.name,
    password: database.password,
  }
  return [
    {
      id: 'zeta-project',
      name: 'Zeta',
      created_at: '2026-01-02T00:00:00Z',
      branches: [],
    },
    {
      id: 'app-project',
      name: 'App',
      created_at: '2026-01-01T00:00:00Z',
      branches: [
        branch('br-dev', 'dev', false, endpoint, db),
        branch('br-main', 'main', true, endpoint, db),
        branch('br-alpha', 'alpha', false, endpoint, db),
      ],
    },
  ]
}

test.beforeEach(async () => {
  await control('neon', 'reset')
  await control('neon', 'seed', { projects: seedProjects() })
})

test('from the tile to an active source: project, branch, database and role, validate, create', async ({
  page,
  signIn,
  baseURL,
}) => {
  await signIn()
  await page.goto('/sources/new')
  await page.getByRole('link', { name: 'Connect with Neon' }).click()
  await expect(page).toHaveURL(/\/sources\/new\/neon$/)
  await expectBreadcrumbs(page, ['Neon'])
  await expect(
    page.getByRole('link', {
      name: 'https://console.neon.tech/app/settings/api-keys',
    }),
  ).toBeVisible()
  await page.getByRole('link', { name: 'Connect Neon' }).click()

  const projects = page.getByRole('radiogroup', { name: 'Project' })
  await expect(projects.locator('label')).toHaveText(['App', 'Zeta'])
  await projects.getByRole('radio', { name: 'App' }).check()
  await page.getByRole('button', { name: 'Continue' }).click()

  await expect(page).toHaveURL(
    /\/sources\/new\/neon\/branches\?projectId=app-project/,
  )
  await expectBreadcrumbs(page, ['Neon', 'Branch'])
  const branches = page.getByRole('radiogroup', { name: 'Branch' })
  await expect(branches.locator('label')).toHaveText([
    'mainPrimary',
    'alpha',
    'dev',
  ])
  await branches.getByRole('radio', { name: /main/ }).check()
  await page.getByRole('button', { name: 'Continue' }).click()

  await expect(page).toHaveURL(/\/sources\/new\/neon\/databases\?/)
  await expectBreadcrumbs(page, ['Neon', 'Branch', 'Database'])
  await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled()

  // A role that cannot log in: the check fails, and the button offers to retry.
  await page.getByLabel('Role').click()
  await page.getByRole('option', { name: 'reader' }).click()
  await page.getByLabel('Database').click()
  await page.getByRole('option', { name: database.name }).click()
  await expect(page.getByLabel('Role')).toHaveText('reader')
  await page.getByRole('button', { name: 'Validate Connection' }).click()
  await expect(
    page.getByRole('button', { name: 'Retry Validation' }),
  ).toBeVisible()
  await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled()

  await page.getByLabel('Role').click()
  await page.getByRole('option', { name: database.name }).click()
  await page.getByRole('button', { name: 'Validate Connection' }).click()
  await expect(
    page.getByText('Database is correctly configured for the sync engine!'),
  ).toBeVisible()
  await page.getByRole('button', { name: 'Continue' }).click()

  await expect(page).toHaveURL(/\/sources\/new\/source-configuration/)
  await expectBreadcrumbs(page, [
    'Neon',
    'Branch',
    'Database',
    'Source Configuration',
  ])
  const details = page.getByRole('region', { name: 'Database details' })
  await expect(details).toContainText('App')
  await expect(details).toContainText('main')
  await expect(details).not.toContainText(database.password)
  const stored = await page.evaluate(() => JSON.stringify(sessionStorage))
  expect(stored).toContain('app-project')
  expect(stored).not.toContain(database.password)

  // Back goes to the databases page of this project and branch, choices kept.
  await page.getByRole('link', { name: 'Back' }).click()
  await expect(page).toHaveURL(
    /\/sources\/new\/neon\/databases\?.*projectId=app-project/,
  )
  await expect(page).toHaveURL(/branchId=br-main/)
  await expect(page.getByLabel('Role')).toHaveText(database.name)
  await page.getByRole('button', { name: 'Validate Connection' }).click()
  await page.getByRole('button', { name: 'Continue' }).click()

  await page.getByRole('button', { name: 'Create source' }).click()
  await expect(page).toHaveURL(/\/teams\/[0-9a-f-]{36}\/[0-9a-f-]{36}$/)
  await expect(page.getByRole('article').locator('.MuiChip-root')).toHaveText(
    'active',
  )
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

test('pages without the earlier choices send the user back', async ({
  page,
  signIn,
}) => {
  await signIn()
  await page.goto(
    '/sources/new/neon/databases?projectId=app-project&branchId=br-main',
  )
  await expect(page).toHaveURL(/\/sources\/new\/neon$/)
  await page.goto('/sources/new/neon/branches')
  await expect(page).toHaveURL(/\/sources\/new\/neon$/)

  // With the project picked, a missing branch goes to the project's branches.
  await control('neon', 'addPersonalToken', 'napi_e2e_redirects')
  await page.getByLabel('Neon API key').fill('napi_e2e_redirects')
  await page.getByRole('button', { name: 'Save token' }).click()
  await page.getByRole('radio', { name: 'App' }).check()
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByRole('radio', { name: /main/ })).toBeVisible()
  await page.goto(
    '/sources/new/neon/databases?projectId=app-project&branchId=br-x',
  )
  await expect(page).toHaveURL(
    /\/sources\/new\/neon\/branches\?projectId=app-project$/,
  )
  // Back from the branches goes to the projects.
  await page.getByRole('link', { name: 'Back' }).click()
  await expect(page).toHaveURL(/\/sources\/new\/neon$/)
})

test('not connected, then empty lists and an API error', async ({
  page,
  signIn,
  consoleErrors,
}) => {
  await signIn()
  await page.goto('/sources/new/neon')
  // Not connected: the connect form, not an error.
  await expect(page.getByLabel('Neon API key')).toBeVisible()
  await expect(page.getByRole('radiogroup')).toHaveCount(0)

  await control('neon', 'addPersonalToken', 'napi_e2e_lists')
  await page.getByLabel('Neon API key').fill('napi_e2e_lists')
  await page.getByRole('button', { name: 'Save token' }).click()
  await page.getByRole('radio', { name: 'Zeta' }).check()
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(
    page.getByText('No branches found for this project.'),
  ).toBeVisible()

  await page.getByRole('link', { name: 'Back' }).click()
  await control('neon', 'fail', '/projects/app-project/branches', 500)
  await page.getByRole('radio', { name: 'App' }).check()
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(
    page.getByText('Error loading branches: Failed to fetch Neon branches'),
  ).toBeVisible()
  allowFailedRequests(consoleErrors, 502, '/branches')

  await control('neon', 'seed', { projects: [] })
  await page.getByRole('link', { name: 'Back' }).click()
  await expect(
    page.getByText('No projects found for the connected accounts.'),
  ).toBeVisible()
})

test('only the WAL level failing: enable logical replication, after a confirm', async ({
  page,
  signIn,
}) => {
  walReplica = await startOwnPostgres({ wal_level: 'replica' })
  const replicaDb = await createSourceDatabase(walReplica.url)
  const endpoint = {
    host: '127.0.0.1',
    port: Number(new URL(walReplica.url).port),
  }
  await control('neon', 'seed', {
    projects: [
      {
        id: 'wal-project',
        name: 'Wal',
        created_at: '2026-01-01T00:00:00Z',
        branches: [
          branch('br-main', 'main', true, endpoint, {
            name: replicaDb.name,
            owner: replicaDb.name,
            password: replicaDb.password,
          }),
        ],
      },
    ],
  })
  await control('neon', 'addPersonalToken', 'napi_e2e_wal')
  await signIn()
  await page.goto('/sources/new/neon')
  await page.getByLabel('Neon API key').fill('napi_e2e_wal')
  await page.getByRole('button', { name: 'Save token' }).click()
  await page.getByRole('radio', { name: 'Wal' }).check()
  await page.getByRole('button', { name: 'Continue' }).click()
  await page.getByRole('radio', { name: /main/ }).check()
  await page.getByRole('button', { name: 'Continue' }).click()
  await page.getByLabel('Database').click()
  await page.getByRole('option', { name: replicaDb.name }).click()
  // The role named like the database's owner is preselected.
  await expect(page.getByLabel('Role')).toHaveText(replicaDb.name)
  await page.getByRole('button', { name: 'Validate Connection' }).click()
  await expect(page.getByText('WAL level is not set to logical')).toBeVisible()

  await page.getByRole('button', { name: 'Enable logical replication' }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog).toContainText("restarts the project's computes")
  await expect(dialog).toContainText('cannot be undone')
  await dialog
    .getByRole('button', { name: 'Enable logical replication' })
    .click()
  await expect(dialog).toBeHidden()
  await expect
    .poll(async () => {
      const project = (await control('neon', 'project', 'wal-project')) as {
        settings?: { enable_logical_replication?: boolean }
      }
      return project.settings?.enable_logical_replication
    })
    .toBe(true)
  // Validated again: this fake's "compute" stays at replica, so the offer stays.
  await expect(
    page.getByRole('button', { name: 'Retry Validation' }),
  ).toBeVisible()
  await replicaDb.drop()
})
