// Claiming a claimable source in the built app against the real server: a script creates one
// (no cookie, no Origin) on a real database of the e2e's Postgres; its developer opens the claim
// link signed out, signs in through the page's link (local sign-in here), answers onboarding
// as a new user, lands back on the claim, waits for it to be ready, picks a team and claims it,
// and arrives at the source's page in that team.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { expect, test } from './support/fixtures.ts'
import {
  controlPlaneUrl,
  createSourceDatabase,
  type SourceDatabase,
} from './support/source-databases.ts'

let control: pg.Pool
let database: SourceDatabase

test.beforeAll(async () => {
  control = new pg.Pool({ connectionString: controlPlaneUrl(), max: 2 })
  database = await createSourceDatabase(controlPlaneUrl())
})
test.afterAll(async () => {
  // Deleted as the dashboard deletes: the server drops its slot, then the database can go.
  await control.query(
    `update sources set deleted_at = now() where id in
       (select source_id from claimable_sources c join sources s on s.id = c.source_id
         where s.connection_url like $1)`,
    [`%/${database.name}%`],
  )
  await expect
    .poll(
      async () =>
        (
          await control.query(
            'select 1 from sources where connection_url like $1',
            [`%/${database.name}%`],
          )
        ).rowCount,
      { timeout: 30_000 },
    )
    .toBe(0)
  await database.drop()
  await control.end()
})

/** Adds the user with `email` to a new team of that name (as the admin tool does). */
async function addToNewTeam(email: string, name: string): Promise<string> {
  const { rows } = await control.query<{ id: string }>(
    `with team as (insert into teams (name) values ($1) returning id)
     insert into memberships (team_id, user_id)
       select team.id, users.id from team, users where users.email = $2
     returning team_id as id`,
    [name, email],
  )
  const id = rows[0]?.id
  if (!id) throw new Error(`no user ${email}`)
  return id
}

test('a script creates a source; its developer signs in from the claim page and claims it into a team', async ({
  page,
  request,
}) => {
  // The starter script: a plain POST, no cookie and no Origin.
  const created = await request.post('/api/public/v1/claimable-sources', {
    data: { database_url: database.url },
  })
  expect(created.status()).toBe(201)
  const { claimId } = (await created.json()) as { claimId: string }

  await page.goto(`/claim?uuid=${claimId}`)
  await expect(page.getByText(claimId)).toBeVisible()
  await expect(
    page.getByText('You must be signed in to claim a source.'),
  ).toBeVisible()
  await expect(
    page.getByRole('link', { name: 'Sign in with Google' }),
  ).toHaveAttribute('href', `/api/public/auth/google/login?claim=${claimId}`)

  await page.getByRole('link', { name: 'Sign in with GitHub' }).click()
  await expect(page).toHaveURL(`/sign-in/local?claim=${claimId}`)
  const email = `claim-${randomUUID().slice(0, 8)}@example.com`
  await page.getByLabel('Name').fill('Linus')
  await page.getByLabel('Email').fill(email)
  await page.getByRole('button', { name: 'Sign in' }).click()

  // A new user answers onboarding first; Skip carries on to the claim.
  await expect(page).toHaveURL(`/welcome?claim=${claimId}`)
  const teamId = await addToNewTeam(email, 'Claimers')
  await page.getByRole('button', { name: 'Skip' }).click()
  await expect(page).toHaveURL(`/claim?uuid=${claimId}`)

  await expect(
    page.getByText('The source is ready to be claimed.'),
  ).toBeVisible()
  // Two teams: the picker shows, on the first; the claim goes into the one picked.
  const picker = page.getByRole('combobox', { name: 'Team' })
  await expect(picker).toHaveText("Linus's team")
  await picker.click()
  await page.getByRole('option', { name: 'Claimers' }).click()
  await page.getByRole('button', { name: 'Claim Source' }).click()
  await expect(page.getByText('Source successfully claimed')).toBeVisible()

  const { rows } = await control.query<{ source_id: string }>(
    'select source_id from claimable_sources where id = $1',
    [claimId],
  )
  const sourceId = rows[0]?.source_id ?? ''
  await expect(page).toHaveURL(`/teams/${teamId}/${sourceId}`)
  await expect(
    page.getByRole('heading', { name: `Source: ${sourceId}` }),
  ).toBeVisible()
  await expect(page.getByText('source_claimed')).toBeVisible()

  // The link has done its work: it hands out nothing more.
  const after = await request.get(`/api/public/v1/claimable-sources/${claimId}`)
  expect(await after.json()).toMatchObject({ state: 'claimed' })
})

test('a returning user signs in from the claim page and comes straight back; a claim_link offers the transfer instead', async ({
  page,
  request,
  signIn,
  baseURL,
}) => {
  const created = await request.post('/api/public/v1/claimable-sources', {
    data: {
      database_url: database.url,
      claim_link: 'https://example.com/transfer',
    },
  })
  expect(created.status()).toBe(201)
  const { claimId } = (await created.json()) as { claimId: string }

  // Someone who has signed in before, now signed out.
  const user = await signIn()
  const out = await page.request.post('/api/public/auth/logout', {
    headers: { origin: baseURL ?? '' },
  })
  expect(out.status()).toBe(200)

  await page.goto(`/claim?uuid=${claimId}`)
  await page.getByRole('link', { name: 'Sign in with GitHub' }).click()
  await expect(page).toHaveURL(`/sign-in/local?claim=${claimId}`)
  await page.getByLabel('Name').fill(user.name)
  await page.getByLabel('Email').fill(user.email)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page).toHaveURL(`/claim?uuid=${claimId}`)

  const transfer = page.getByRole('link', { name: 'Transfer database' })
  await expect(transfer).toHaveAttribute('href', 'https://example.com/transfer')
  await expect(transfer).toHaveAttribute('target', '_blank')
  await expect(page.getByRole('button', { name: 'Claim Source' })).toHaveCount(
    0,
  )
})

test('a missing claim id says to check the link', async ({ page }) => {
  await page.goto('/claim')
  await expect(
    page.getByText(
      'No source ID provided. Please check if your claim link is correct',
    ),
  ).toBeVisible()
})
