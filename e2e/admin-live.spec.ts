// The admin tool changes what open dashboards show, live: `npm run admin` (as a process, on the
// e2e server's control plane) adds the signed-in user to a team, and the sidebar shows it
// without a reload; removing them takes it away again.
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { promisify } from 'node:util'
import { expect, test } from './support/fixtures.ts'
import { databaseUrlFile } from './support/paths.ts'

async function admin(args: string[]): Promise<unknown> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'src/server/admin/cli.ts', ...args, '--json'],
    {
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: readFileSync(databaseUrlFile, 'utf8'),
      },
    },
  )
  return JSON.parse(stdout)
}

test('a user added to a team by npm run admin sees it appear live', async ({
  page,
  signIn,
}) => {
  const user = await signIn()
  await page.goto('/sources')
  await expect(
    page.getByRole('link', { name: `${user.name}'s team` }),
  ).toBeVisible()
  const me = (await (
    await page.request.get('/api/public/auth/user')
  ).json()) as { id: string }

  const name = `Ops ${me.id.slice(0, 6)}`
  const team = (await admin(['teams', 'create', '--name', name])) as {
    id: string
  }
  await expect(page.getByRole('link', { name })).toHaveCount(0)
  await admin(['teams', 'add-user', '--team', team.id, '--user', me.id])
  // No reload: the membership arrives through the dashboard's synced shapes.
  await expect(page.getByRole('link', { name })).toBeVisible()
  await page.getByRole('link', { name }).click()
  await expect(page.getByRole('heading', { name })).toBeVisible()
  // The team page has read its alert thresholds from the API: removed before that answer, the
  // member would get the 404 a non-member gets (a console error).
  await expect(page.getByLabel('Reconnecting minutes')).toHaveValue(/\d/)

  await admin(['teams', 'remove-user', '--team', team.id, '--user', me.id])
  await expect(page.getByRole('link', { name })).toHaveCount(0)
})
