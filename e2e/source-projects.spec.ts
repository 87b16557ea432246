// Projects and environments on sources: set in the wizard or on the source's page, shown as
// chips on the cards, filtered on All Sources and the team page, and the team's sources
// grouped by project (those without one last), readable at 375 px.
import type { Page } from '@playwright/test'
import { personalTeam } from './support/explorer.ts'
import { expect, test } from './support/fixtures.ts'

// Never reached: skip_validation lets a source be created without a database behind it.
const databaseUrl = (name: string) =>
  `postgresql://projects@127.0.0.1:1/${name}_${Date.now()}`

async function createThroughWizard(page: Page) {
  await page.goto('/sources/new?skip_validation=true')
  await page.getByLabel('Connection string').fill(databaseUrl('web'))
  await page.getByRole('button', { name: 'Next' }).click()
  await expect(page).toHaveURL(/\/sources\/new\/source-configuration/)
  await page.getByLabel('Name').fill('Web prod')
  await page.getByLabel('Project').fill('my app')
  await expect(
    page.getByText('Project may hold only letters, digits and - _ . /'),
  ).toBeVisible()
  await expect(
    page.getByRole('button', { name: 'Create source' }),
  ).toBeDisabled()
  await page.getByLabel('Project').fill(' web ')
  await page.getByLabel('Environment').fill('production')
  await page.getByRole('button', { name: 'Create source' }).click()
  await expect(page).toHaveURL(/\/teams\/[0-9a-f-]{36}\/[0-9a-f-]{36}$/)
}

async function createByApi(
  page: Page,
  origin: string,
  teamId: string,
  name: string,
) {
  const created = await page.request.put(
    '/api/v1/sources?skip_validation=true',
    {
      data: {
        region: 'eu-west-1',
        team_id: teamId,
        database_url: databaseUrl(name.replace(/\W/g, '_')),
        name,
      },
      headers: { origin },
    },
  )
  expect(created.status()).toBe(201)
  return ((await created.json()) as { id: string }).id
}

/** The names of the cards in `scope`, in order. */
const cardNames = (page: Page, scope: string) =>
  page.getByRole('region', { name: scope }).getByRole('article')

test('projects and environments: set, shown, filtered and grouped', async ({
  page,
  signIn,
  baseURL,
}) => {
  await signIn()
  const team = await personalTeam(page.request)
  await createThroughWizard(page)
  const webCard = page.getByRole('article', { name: 'Web prod' })
  await expect(webCard.getByText('Project: web')).toBeVisible()
  await expect(webCard.getByText('Environment: production')).toBeVisible()

  // Set later on the source's page: a source added without them.
  const apiId = await createByApi(page, baseURL ?? '', team.id, 'Api preview')
  await createByApi(page, baseURL ?? '', team.id, 'Scratch')
  await page.goto(`/teams/${team.id}/${apiId}`)
  await page.getByRole('button', { name: 'Edit project' }).click()
  const dialog = page.getByRole('dialog', { name: 'Project and environment' })
  await dialog.getByLabel('Environment').fill('pr 123')
  await expect(
    dialog.getByText('Environment may hold only letters, digits and - _ . /'),
  ).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled()
  await dialog.getByLabel('Project').fill('api')
  await dialog.getByLabel('Environment').fill('pr-123')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toBeHidden()
  const apiCard = page.getByRole('article', { name: 'Api preview' })
  await expect(apiCard.getByText('Project: api')).toBeVisible()
  await expect(apiCard.getByText('Environment: pr-123')).toBeVisible()

  // The team page groups by project, in name order, those without one last.
  await page.goto(`/teams/${team.id}`)
  const sources = page.getByRole('region', { name: 'Sources' })
  await expect(sources.getByRole('heading', { level: 3 })).toHaveText([
    'api',
    'web',
    'No project',
  ])
  await expect(cardNames(page, 'Project api')).toHaveAccessibleName(
    'Api preview',
  )
  await expect(cardNames(page, 'Project web')).toHaveAccessibleName('Web prod')
  await expect(cardNames(page, 'No project')).toHaveAccessibleName('Scratch')

  // Filters: by environment, then by project too; the URL keeps them.
  await sources.getByRole('combobox', { name: 'Environment' }).click()
  await page.getByRole('option', { name: 'production' }).click()
  await expect(page).toHaveURL(/environment=production/)
  await expect(sources.getByRole('article')).toHaveCount(1)
  await expect(sources.getByRole('article')).toHaveAccessibleName('Web prod')
  await sources.getByRole('combobox', { name: 'Project' }).click()
  await page.getByRole('option', { name: 'api' }).click()
  await expect(sources.getByRole('article')).toHaveCount(0)
  await expect(
    sources.getByText('No sources match these filters.'),
  ).toBeVisible()
  await sources.getByRole('combobox', { name: 'Environment' }).click()
  await page.getByRole('option', { name: 'All environments' }).click()
  await expect(sources.getByRole('article')).toHaveAccessibleName('Api preview')

  // Cleared on the source's page (reached from its card, as a user does): back among those
  // without a project.
  await sources
    .getByRole('article', { name: 'Api preview' })
    .getByRole('link', { name: 'Api preview' })
    .click()
  await expect(page).toHaveURL(new RegExp(`/teams/${team.id}/${apiId}$`))
  await page.getByRole('button', { name: 'Edit project' }).click()
  await expect(dialog.getByLabel('Project')).toHaveValue('api')
  await dialog.getByLabel('Project').fill('')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toBeHidden()
  await expect(apiCard.getByText('Project: api')).toBeHidden()
  await expect(apiCard.getByText('Environment: pr-123')).toBeVisible()

  // All Sources: the same filters over every team.
  await page.getByRole('link', { name: 'All Sources' }).click()
  const teamRegion = page.getByRole('region', { name: team.name })
  await expect(teamRegion.getByRole('article')).toHaveCount(3)
  await page.getByRole('combobox', { name: 'Environment' }).click()
  await page.getByRole('option', { name: 'pr-123' }).click()
  await expect(teamRegion.getByRole('article')).toHaveCount(1)
  await expect(teamRegion.getByRole('article')).toHaveAccessibleName(
    'Api preview',
  )
  await page.getByRole('combobox', { name: 'Project' }).click()
  await page.getByRole('option', { name: 'web' }).click()
  await expect(page.getByText('No sources match these filters.')).toBeVisible()

  // At 375 px the team page's filters, groups and chips fit the width.
  await page.setViewportSize({ width: 375, height: 740 })
  await page.goto(`/teams/${team.id}`)
  await expect(
    page.getByRole('article', { name: 'Web prod' }).getByText('Project: web'),
  ).toBeVisible()
  await expect(
    sources.getByRole('combobox', { name: 'Environment' }),
  ).toBeVisible()
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth),
  ).toBeLessThanOrEqual(375)
})
