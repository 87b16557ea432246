// A team's page: its 'Add source' opens the wizard with that team chosen, even when it is
// not the user's first team (the one the wizard picks by itself).
import pg from 'pg'
import { expect, test } from './support/fixtures.ts'
import { controlPlaneUrl } from './support/source-databases.ts'

/** Makes the user, found by email, a member of a new team; returns its id. */
async function joinNewTeam(email: string, name: string): Promise<string> {
  const control = new pg.Client({ connectionString: controlPlaneUrl() })
  await control.connect()
  try {
    const { rows } = await control.query<{ id: string }>(
      `with team as (insert into teams (name) values ($2) returning id)
       insert into memberships (team_id, user_id)
       select team.id, users.id from team, users where users.email = $1
       returning team_id as id`,
      [email, name],
    )
    const id = rows[0]?.id
    if (!id) throw new Error(`no user ${email}`)
    return id
  } finally {
    await control.end()
  }
}

test("a team's Add source opens the wizard with that team chosen", async ({
  page,
  signIn,
}) => {
  const user = await signIn()
  const teamName = `Second team of ${user.name}`
  const teamId = await joinNewTeam(user.email, teamName)

  await page.goto(`/teams/${teamId}`)
  await expect(page.getByRole('heading', { name: teamName })).toBeVisible()
  await page.getByRole('link', { name: 'Add source' }).click()
  await expect(page).toHaveURL(
    new RegExp(`/sources/new/?\\?team_id=${teamId}$`),
  )
  await expect(
    page.getByRole('heading', { name: 'Connect a Postgres database' }),
  ).toBeVisible()

  // No database is checked here: skip_validation lets Next through to the team picker.
  await page.goto(`${page.url()}&skip_validation=true`)
  await page
    .getByLabel('Connection string')
    .fill('postgres://app:secret@db.example.com:5432/app')
  await page.getByRole('button', { name: 'Next' }).click()
  await expect(page).toHaveURL(/\/sources\/new\/source-configuration/)
  await expect(page.getByRole('combobox', { name: 'Team' })).toHaveText(
    teamName,
  )
})
