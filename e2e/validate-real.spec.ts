// The public validation page against the real endpoint and real Postgres: the e2e launcher's
// own Postgres (ready), roles on it without REPLICATION or CREATE, a wrong password, a missing
// database and a port nobody listens on. Local mode allows private targets, as on a laptop.
import type { Page } from '@playwright/test'
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import pg from 'pg'
import { freePort } from '../src/server/platform/db/embedded-postgres.ts'
import { expect, test } from './support/fixtures.ts'
import { databaseUrlFile } from './support/paths.ts'
import { startOwnPostgres } from './support/source-databases.ts'
import {
  expectRow,
  panelOf,
  submit,
  UNKNOWN,
  VALIDATION_PATH,
} from './support/validation-page.ts'

let admin: pg.Pool
let adminUrl: URL

test.beforeAll(async () => {
  adminUrl = new URL(readFileSync(databaseUrlFile, 'utf8'))
  admin = new pg.Pool({ connectionString: adminUrl.toString(), max: 1 })
  // New roles get CREATE only if granted (Postgres 15+ no longer gives it to PUBLIC on the
  // public schema, but the database-level grant is what the check reads).
  await admin.query(`revoke create on database ${database()} from public`)
})

const database = () => adminUrl.pathname.slice(1)
test.afterAll(async () => {
  await admin.end()
})

function urlWith(changes: { user?: string; password?: string; db?: string }) {
  const url = new URL(adminUrl)
  if (changes.user) url.username = changes.user
  if (changes.password) url.password = changes.password
  if (changes.db) url.pathname = `/${changes.db}`
  return url.toString()
}

/** A login role with a password; `grants` run as the admin afterwards. */
async function role(grants: (name: string) => string[] = () => []) {
  const name = `check_${randomUUID().slice(0, 8)}`
  await admin.query(`create role ${name} login password 'pw-${name}'`)
  for (const sql of grants(name)) await admin.query(sql)
  return { name, url: urlWith({ user: name, password: `pw-${name}` }) }
}

async function validate(page: Page, url: string) {
  await page.goto(VALIDATION_PATH)
  await submit(page, url)
  const panel = panelOf(page)
  await expect(panel).toBeVisible()
  return panel
}

test('a ready database gets the success banner', async ({ page }) => {
  const panel = await validate(page, adminUrl.toString())
  await expect(
    panel.getByText('Database is correctly configured for the sync engine!'),
  ).toBeVisible()
  await expectRow(
    page,
    'Connection',
    'Passed',
    'Successfully connected to database',
  )
  await expectRow(page, 'WAL Level', 'Passed', 'WAL level is set to logical')
})

test('a role without REPLICATION: the replication-mode Connection Failed', async ({
  page,
}) => {
  const plain = await role()
  const panel = await validate(page, plain.url)
  await expect(panel.getByText('Connection Failed').first()).toBeVisible()
  await expect(panel).toContainText('REPLICATION')
  await expectRow(
    page,
    'Replication Permissions',
    'Failed',
    'User does not have replication permissions',
  )
  // CREATE is judged only once the (replication) connection worked.
  await expectRow(page, 'CREATE Privilege', 'Unknown', UNKNOWN)
  await expectRow(page, 'WAL Level', 'Passed', 'WAL level is set to logical')
})

test('a role with REPLICATION but no CREATE gets one step, numbered 1', async ({
  page,
}) => {
  const replicator = await role((name) => [`alter role ${name} replication`])
  const panel = await validate(page, replicator.url)
  await expectRow(
    page,
    'Replication Permissions',
    'Passed',
    'User has replication permissions',
  )
  const steps = panel.getByRole('list', { name: 'Fix steps' })
  await expect(steps.getByRole('listitem')).toHaveCount(1)
  const step = steps.getByRole('listitem').first()
  await expect(step).toContainText(/^1\. /)
  await expect(step).toContainText(
    `GRANT CREATE ON DATABASE ${database()} TO ${replicator.name};`,
  )
})

for (const [title, url] of [
  ['a wrong password', () => urlWith({ password: 'wrong-password' })],
  ['a database that does not exist', () => urlWith({ db: 'no_such_db' })],
] as const)
  test(`${title}: Connection Failed, the other checks unknown`, async ({
    page,
  }) => {
    const panel = await validate(page, url())
    await expect(panel.getByText('Connection Failed').first()).toBeVisible()
    await expectRow(page, 'WAL Level', 'Unknown', UNKNOWN)
    await expect(panel).not.toContainText('wrong-password')
  })

test('nothing listening on the port: Connection Failed', async ({ page }) => {
  const url = new URL(adminUrl)
  url.port = String(await freePort())
  const panel = await validate(page, url.toString())
  await expect(panel.getByText('Connection Failed').first()).toBeVisible()
  await expectRow(page, 'Replication Permissions', 'Unknown', UNKNOWN)
})

test('a server with wal_level=replica gets the WAL step alone', async ({
  page,
}) => {
  const server = await startOwnPostgres({
    wal_level: 'replica',
    fsync: 'off',
  })
  try {
    const panel = await validate(page, server.url)
    await expectRow(
      page,
      'WAL Level',
      'Failed',
      'WAL level is not set to logical',
    )
    await expectRow(
      page,
      'Replication Permissions',
      'Passed',
      'User has replication permissions',
    )
    const steps = panel.getByRole('list', { name: 'Fix steps' })
    await expect(steps.getByRole('listitem')).toHaveCount(1)
    await expect(steps.getByRole('listitem').first()).toContainText(/^1\. /)
    await expect(steps).toContainText('wal_level')
  } finally {
    await server.stop()
  }
})
