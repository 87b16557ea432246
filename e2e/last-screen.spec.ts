// A repeat visit shows what its last screen showed while the local store opens (db/tab/
// last-screen.ts): the user's own rows, never a secret, and never to anyone else. Postgres's
// code is held back here (its request never answered), so the store cannot open and whatever
// shows came from the last screen.
import { readFileSync } from 'node:fs'
import pg from 'pg'
import type { Page } from '@playwright/test'
import { expect, test } from './support/fixtures.ts'
import { storeSaved } from './support/local-store.ts'
import { databaseUrlFile } from './support/paths.ts'

const SECRET = 'sec_lastscreen0123456789'

let db: pg.Pool
test.beforeAll(() => {
  db = new pg.Pool({
    connectionString: readFileSync(databaseUrlFile, 'utf8'),
    max: 2,
  })
})
test.afterAll(async () => {
  await db.end()
})

async function addSource(email: string, name: string): Promise<void> {
  await db.query(
    `insert into sources (team_id, name, region, connection_url, source_secret)
     select team_id, $2, 'eu-west-1', 'postgres://app@db.example.com/orders', $3
       from users where email = $1`,
    [email, name, SECRET],
  )
}

const holdPostgres = (page: Page) => page.route('**/*.wasm', () => {})

test('a repeat visit shows the last screen before the store opens, without the secret', async ({
  page,
  signIn,
}) => {
  const user = await signIn()
  await addSource(user.email, 'orders-db')
  await page.goto('/sources')
  const team = page.getByRole('region', { name: `${user.name}'s team` })
  await expect(team.getByRole('link', { name: 'orders-db' })).toBeVisible()
  await expect(
    team.getByRole('button', { name: 'Copy Source Secret' }),
  ).toBeVisible()
  await storeSaved(page)

  await holdPostgres(page)
  await page.reload()
  await expect(team.getByRole('link', { name: 'orders-db' })).toBeVisible()
  // The secret is not kept: the card masks nothing and offers nothing to copy until the
  // store's own rows arrive.
  await expect(
    team.getByRole('button', { name: 'Copy Source Secret' }),
  ).toHaveCount(0)
  await expect(page.getByText(SECRET.slice(-4))).toHaveCount(0)
  expect(
    await page.evaluate(() => JSON.stringify({ ...localStorage })),
  ).not.toContain(SECRET)
  expect(
    await page.evaluate(
      () => performance.getEntriesByName('sluice:store-open').length,
    ),
  ).toBe(0)
})

test("someone else signed in on this browser never sees the last user's screen", async ({
  page,
  signIn,
}) => {
  const first = await signIn()
  await page.goto('/sources')
  const nav = page.getByRole('navigation', { name: 'Main' })
  await expect(
    nav.getByRole('link', { name: `${first.name}'s team` }),
  ).toBeVisible()
  await storeSaved(page)

  // Signed in as someone else (the session cookie changes, no sign-out in this page).
  await signIn()
  await holdPostgres(page)
  await page.goto('/sources')
  await expect(page.getByText('Opening your data…')).toBeVisible()
  await expect(page.getByText(first.name)).toHaveCount(0)
})
