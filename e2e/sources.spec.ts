// Sources end to end, against real Postgres databases: add one through the wizard and watch the
// engine take it on, clear its cache, delete it; fail to delete one whose server is gone and
// forget it; follow a source's state on the public status page.
import type { APIRequestContext, Page } from '@playwright/test'
import pg from 'pg'
import type { RunningPostgres } from '../src/server/platform/db/embedded-postgres.ts'
import { expect, test } from './support/fixtures.ts'
import {
  controlPlaneUrl,
  createSourceDatabase,
  slotCount,
  startOwnPostgres,
  storedSource,
  type SourceDatabase,
} from './support/source-databases.ts'

let control: pg.Pool
// Users' databases live on a Postgres of their own: what a test does to them (holding a
// transaction open, stopping the server) must not touch the control plane's cluster.
let usersServer: RunningPostgres
const databases: SourceDatabase[] = []

test.beforeAll(async () => {
  control = new pg.Pool({ connectionString: controlPlaneUrl(), max: 2 })
  usersServer = await startOwnPostgres()
})
test.afterAll(async () => {
  // Emptied as it goes: a worker can run this file's tests in several stretches, each with
  // its own beforeAll and afterAll, and must not end a pool twice.
  for (const database of databases.splice(0)) await database.drop()
  await usersServer.stop()
  await control.end()
})

async function sourceDatabase() {
  const database = await createSourceDatabase(usersServer.url)
  databases.push(database)
  return database
}

// The card's state badge (its only chip).
const badge = (page: Page) => page.getByRole('article').locator('.MuiChip-root')

async function personalTeam(request: APIRequestContext): Promise<string> {
  const response = await request.get('/api/v1/teams')
  const teams = (await response.json()) as { id: string }[]
  const id = teams[0]?.id
  if (!id) throw new Error('the signed-in user has no team')
  return id
}

/** Adds a source through the API, as the wizard does, without the readiness check. */
async function addSource(
  request: APIRequestContext,
  baseURL: string,
  databaseUrl: string,
): Promise<{ id: string; teamId: string }> {
  const teamId = await personalTeam(request)
  const response = await request.put('/api/v1/sources?skip_validation=true', {
    data: { region: 'eu-west-1', team_id: teamId, database_url: databaseUrl },
    headers: { origin: baseURL },
  })
  expect(response.status()).toBe(201)
  const { id } = (await response.json()) as { id: string }
  return { id, teamId }
}

test('add a ready database through the wizard, watch it go active, clear its cache, delete it', async ({
  page,
  signIn,
}) => {
  const user = await signIn()
  const database = await sourceDatabase()

  await page.goto('/sources/new')
  await page.getByLabel('Connection string').fill(`  ${database.url}  `)
  await page.getByRole('button', { name: 'Validate Connection String' }).click()
  await expect(
    page.getByText('Database is correctly configured for the sync engine!'),
  ).toBeVisible()
  await page.getByRole('button', { name: 'Next' }).click()
  await expect(page).toHaveURL(/\/sources\/new\/source-configuration/)
  await expect(page.getByText(database.name).first()).toBeVisible()

  // A transaction holding an xid keeps the new slot from being created (logical decoding
  // waits for it), so the source stays `initializing` until the test lets go.
  const holder = await database.admin.connect()
  await holder.query('begin')
  await holder.query('select pg_current_xact_id()')
  try {
    await page.getByRole('button', { name: 'Create source' }).click()
    await expect(page).toHaveURL(/\/teams\/[0-9a-f-]{36}\/[0-9a-f-]{36}$/)
    await expect(badge(page)).toHaveText('initializing')
  } finally {
    await holder.query('commit')
    holder.release()
  }
  await expect(badge(page)).toHaveText('active')
  // Measured as soon as it is active, then every 15 s: the time shown keeps moving.
  const health = page.getByRole('region', { name: 'Replication health' })
  const measuredAt = health
    .locator('dt', { hasText: 'Last measured' })
    .locator('+ dd')
  await expect(measuredAt).toBeVisible({ timeout: 10_000 })
  const firstMeasured = await measuredAt.textContent()
  await expect
    .poll(() => measuredAt.textContent(), { timeout: 40_000 })
    .not.toBe(firstMeasured)
  const sourceId = page.url().split('/').pop() ?? ''
  await expect(
    page.getByRole('heading', { name: `Source: ${sourceId}` }),
  ).toBeVisible()

  const events = page.getByRole('table', { name: 'Event Logs' })
  for (const name of [
    'source_created',
    'replication_slot_created',
    'source_active',
  ])
    await expect(events.getByText(name, { exact: true })).toBeVisible()
  expect(await slotCount(database)).toBe(1)

  // The password is stored sealed, never as text, and never shown.
  const stored = await storedSource(control, sourceId)
  expect(stored?.connection_url).not.toContain(database.password)
  expect(
    stored?.encrypted_password?.includes(Buffer.from(database.password)),
  ).toBe(false)
  await expect(page.locator('body')).not.toContainText(database.password)
  await expect(page.locator('body')).not.toContainText(
    encodeURIComponent(database.password),
  )
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', {
      name: `${user.name}'s team`,
    }),
  ).toBeVisible()

  await page.getByRole('button', { name: 'Clear cache' }).click()
  await page
    .getByRole('dialog')
    .getByRole('button', { name: 'Clear cache' })
    .click()
  await expect(events.getByText('cache_cleared', { exact: true })).toBeVisible()

  await page.getByRole('button', { name: 'Delete' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
  await expect(page).toHaveURL(/\/sources$/)
  await expect(page.getByRole('heading', { name: 'All Sources' })).toBeVisible()
  expect(await slotCount(database)).toBe(0)
  expect(await storedSource(control, sourceId)).toBeNull()
})

test.describe('a source whose database server is gone', () => {
  let server: RunningPostgres | null = null

  test.beforeAll(async () => {
    server = await startOwnPostgres()
  })
  test.afterAll(async () => {
    await server?.stop()
  })

  test('fails to delete, then is forgotten with the typed id', async ({
    page,
    signIn,
    baseURL,
  }) => {
    await signIn()
    if (!server) throw new Error('the server of this describe did not start')
    const database = await createSourceDatabase(server.url)
    const { id, teamId } = await addSource(
      page.request,
      baseURL ?? '',
      database.url,
    )
    await page.goto(`/teams/${teamId}/${id}`)
    await expect(badge(page)).toHaveText('active')

    await database.admin.end()
    await server?.stop()
    server = null

    await page.getByRole('button', { name: 'Delete' }).click()
    await page
      .getByRole('dialog')
      .getByRole('button', { name: 'Delete' })
      .click()
    await expect(badge(page)).toHaveText('delete_failed')
    // The wait ends on the row's outcome and says it, well before the 15 s sync deadline; it
    // never claims the change has not arrived while the page already shows it.
    await expect(
      page
        .getByRole('alert')
        .filter({ hasText: 'The source could not be deleted' }),
    ).toBeVisible({ timeout: 10_000 })
    await expect(page.getByRole('dialog')).toBeHidden()
    await expect(page.getByText('has not reached this browser')).toHaveCount(0)
    const forget = page.getByRole('button', { name: 'Forget source' })
    await expect(forget).toBeEnabled()
    await forget.click()

    const dialog = page.getByRole('dialog')
    await expect(dialog).toContainText('replication slot')
    const confirm = dialog.getByRole('button', { name: 'Forget source' })
    await expect(confirm).toBeDisabled()
    const typed = dialog.getByLabel('Type the source id to confirm')
    await typed.fill(id.slice(0, -1))
    await expect(confirm).toBeDisabled()
    await typed.fill(id)
    await confirm.click()
    await expect(page).toHaveURL(/\/sources$/)
    expect(await storedSource(control, id)).toBeNull()
  })
})

test('the public status page follows a source live', async ({
  page,
  signIn,
  baseURL,
  browser,
}) => {
  await signIn()
  const database = await sourceDatabase()
  const { id } = await addSource(page.request, baseURL ?? '', database.url)

  // A visitor: no session, nothing but the link.
  const visitor = await browser.newContext({ baseURL })
  try {
    const status = await visitor.newPage()
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await status.route('**/api/public/source-status/**', async (route) => {
      await held
      await route.continue()
    })
    await status.goto(`/source-status/${id}`)
    await expect(status.getByText(id)).toBeVisible()
    await expect(status.getByText('Loading...')).toBeVisible()
    release()
    await expect(status.locator('.MuiChip-root')).toHaveText('active')

    await control.query(
      `update sources set target_electric_url = 'https://elsewhere.example' where id = $1`,
      [id],
    )
    await expect(status.locator('.MuiChip-root')).toHaveText(
      'transfer_requested',
    )
  } finally {
    await visitor.close()
    // Deleted through the product, so its slot leaves the database before the database goes.
    await page.request.delete(`/api/v1/sources/${id}`, {
      headers: { origin: baseURL ?? '' },
    })
    await expect
      .poll(() => storedSource(control, id), { timeout: 30_000 })
      .toBeNull()
  }
})
