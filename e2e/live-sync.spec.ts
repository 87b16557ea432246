import { readFileSync } from 'node:fs'
import pg from 'pg'
import { expect, test } from './support/fixtures.ts'
import { databaseUrlFile } from './support/paths.ts'

// Writes go straight to the control-plane Postgres, as the engine or an admin would make them.
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

async function teamOf(email: string): Promise<string> {
  const { rows } = await db.query<{ team_id: string }>(
    'select team_id from users where email = $1',
    [email],
  )
  return rows[0]?.team_id ?? ''
}

test('a source written in Postgres appears on /sources without a reload', async ({
  page,
  signIn,
}) => {
  const user = await signIn()
  await page.goto('/sources')
  await expect(
    page.getByRole('link', { name: 'Add Your First Postgres Database' }),
  ).toBeVisible()
  const teamId = await teamOf(user.email)
  await db.query(
    `insert into sources (team_id, name, region, connection_url, source_secret)
     values ($1, 'orders-db', 'eu-west-1', 'postgres://app@db.example.com/orders', 'sec_123456789')`,
    [teamId],
  )
  const team = page.getByRole('region', { name: `${user.name}'s team` })
  await expect(team.getByRole('link', { name: 'orders-db' })).toBeVisible()
  await expect(
    page.getByRole('link', { name: 'Add Your First Postgres Database' }),
  ).toBeHidden()
})

test('a team renamed in Postgres changes the sidebar', async ({
  page,
  signIn,
}) => {
  const user = await signIn()
  await page.goto('/sources')
  const nav = page.getByRole('navigation', { name: 'Main' })
  await expect(
    nav.getByRole('link', { name: `${user.name}'s team` }),
  ).toBeVisible()
  await db.query(`update teams set name = 'Renamed by SQL' where id = $1`, [
    await teamOf(user.email),
  ])
  await expect(nav.getByRole('link', { name: 'Renamed by SQL' })).toBeVisible()
})
