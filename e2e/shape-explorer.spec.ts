// The Shape Explorer end to end, against real source databases run by the real
// engine: the empty state; choosing a team, a source and a table; the schema read again; the
// 1,000-row warning; and a where clause that narrows a table to a shape, opened in the Shape
// Inspector.
import { SCHEMA_REFETCH_MS } from '../src/shared/constants.ts'
import { expect, test } from './support/fixtures.ts'
import {
  addTeam,
  choose,
  fillAuditSchema,
  fillPublicTables,
  gridRows,
  personalTeam,
  shapeGrid,
  tableButton,
  tableField,
  WARNING_2000,
  whereField,
} from './support/explorer.ts'
import { useExplorerSources } from './support/explorer-sources.ts'

const sources = useExplorerSources()

test('with no source, the page says there is nothing to explore yet', async ({
  page,
  signIn,
}) => {
  await signIn()
  await page.goto('/shape-explorer')
  await expect(
    page.getByRole('heading', { name: 'Shape Explorer' }),
  ).toBeVisible()
  await expect(page.getByText('No sources created yet')).toBeVisible()
  await expect(
    page.getByText('Add a source to start exploring shapes'),
  ).toBeVisible()
  await expect(page.getByRole('list', { name: 'Tables' })).toHaveCount(0)
})

test('team, source and table selection: active sources by id, labels, the filter and reload', async ({
  page,
  signIn,
  baseURL,
}) => {
  const user = (await signIn()) as { email: string }
  const team = await personalTeam(page.request)
  const publicOnly = await sources.sourceDatabase(fillPublicTables)
  const withAudit = await sources.sourceDatabase(async (db) => {
    await fillPublicTables(db)
    await fillAuditSchema(db)
  })
  const otherTeamDb = await sources.sourceDatabase(fillAuditSchema)
  const otherTeamId = await addTeam(
    sources.controlPlane(),
    user.email,
    'Zed team',
  )
  const add = (teamId: string, databaseUrl: string) =>
    sources.addSource(page, baseURL, teamId, databaseUrl)
  const first = await add(team.id, publicOnly.url)
  const second = await add(team.id, withAudit.url)
  const other = await add(otherTeamId, otherTeamDb.url)
  // A source whose database is never there does not become active, and is not offered.
  const response = await page.request.put(
    '/api/v1/sources?skip_validation=true',
    {
      data: {
        region: 'eu-west-1',
        team_id: team.id,
        database_url: 'postgres://app:secret@127.0.0.1:1/app',
      },
      headers: { origin: baseURL ?? '' },
    },
  )
  expect(response.status()).toBe(201)
  const idle = ((await response.json()) as { id: string }).id
  sources.added(idle)

  await page.goto('/shape-explorer')
  await expect(page.getByRole('combobox', { name: 'Team' })).toHaveText(
    team.name,
  )
  // The team's first active source is chosen; its tables are all in public, so no schema.
  await expect(page.getByRole('combobox', { name: 'Source' })).toHaveText(
    first.id,
  )
  await expect(tableButton(page, 'items')).toBeVisible()
  await expect(tableButton(page, 'notes')).toBeVisible()
  await page.getByRole('combobox', { name: 'Source' }).click()
  await expect(page.getByRole('option')).toHaveText([first.id, second.id])
  await expect(page.getByRole('option', { name: idle })).toHaveCount(0)
  await page.getByRole('option', { name: second.id }).click()

  // With a table outside public, every label names its schema.
  await expect(tableButton(page, 'audit.events')).toBeVisible()
  await expect(tableButton(page, 'public.items')).toBeVisible()
  await expect(page).toHaveURL(new RegExp(`sourceId=${second.id}`))
  const filter = page.getByRole('textbox', { name: 'Filter tables' })
  await filter.fill('no') // prefix of the name
  await expect(
    page.getByRole('list', { name: 'Tables' }).getByRole('button'),
  ).toHaveText(['public.notes'])
  await filter.fill('audit.e') // prefix of schema.name
  await expect(
    page.getByRole('list', { name: 'Tables' }).getByRole('button'),
  ).toHaveText(['audit.events'])
  await filter.fill('zzz')
  await expect(page.getByText('No tables')).toBeVisible()
  await filter.fill('')

  // Reload reads the schema again: a table created since shows.
  await withAudit.admin.query(
    `create table audit.logins (id int primary key); alter table audit.logins owner to ${withAudit.name}`,
  )
  await page.getByRole('button', { name: 'Reload schema' }).click()
  await expect(tableButton(page, 'audit.logins')).toBeVisible()

  await tableButton(page, 'audit.events').click()
  await expect(tableField(page)).toHaveValue('audit.events')
  await expect(shapeGrid(page)).toContainText('login')

  await choose(page, 'Team', 'Zed team')
  await expect(page.getByRole('combobox', { name: 'Source' })).toHaveText(
    other.id,
  )
  await expect(tableButton(page, 'audit.events')).toBeVisible()
  await expect(tableField(page)).toHaveValue('')
  await expect(page).toHaveURL(new RegExp(`teamId=${otherTeamId}`))
})

test('the schema is read again every 60 seconds while the page is open', async ({
  page,
  signIn,
  baseURL,
}) => {
  const { database } = await sources.withItemsSource(page, signIn, baseURL)
  // The page's timers run on a clock the test can move (the store's worker keeps real time).
  // Installed at the system's time, it runs in real time while the page loads: the 60 s are
  // counted from the read's request as this process saw it go (a few ms after the page's
  // timer started), however long the answer or the pause then took on a loaded machine.
  await page.clock.install()
  const sent: number[] = []
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith('/schema'))
      sent.push(Date.now())
  })
  await page.goto('/shape-explorer')
  await expect(tableButton(page, 'items')).toBeVisible()
  const readAt = sent.at(-1) ?? 0
  // A pause in the past is refused: 1 s ahead of the page's time, read just before.
  const pausedAt = (await page.evaluate(() => Date.now())) + 1_000
  await page.clock.pauseAt(pausedAt)
  const first = sent.length
  await database.admin.query(
    `create table later (id int primary key); alter table later owner to ${database.name}`,
  )
  // To 3 s before the next read is due, then to 3 s past it.
  await page.clock.runFor(readAt + SCHEMA_REFETCH_MS - 3_000 - pausedAt)
  await expect(tableButton(page, 'later')).toHaveCount(0)
  expect(sent).toHaveLength(first)
  await page.clock.runFor(6_000)
  await expect(tableButton(page, 'later')).toBeVisible()
  expect(sent).toHaveLength(first + 1)
  // A refetch keeps the list up meanwhile: no 'Loading schema...' flash.
  await expect(page.getByText('Loading schema...')).toHaveCount(0)
})

test('a table over 1,000 rows gets the warning word for word, and no shape', async ({
  page,
  signIn,
  baseURL,
}) => {
  await sources.withItemsSource(page, signIn, baseURL)
  const shapes: string[] = []
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/v1/shape')
      shapes.push(request.url())
  })
  await page.goto('/shape-explorer')
  await tableButton(page, 'items').click()
  await expect(page.getByRole('alert')).toHaveText(WARNING_2000)
  await expect(page).toHaveURL(/table=public\.items/)
  await expect(shapeGrid(page)).toHaveCount(0)
  // A warning may be asked about again.
  await expect(page.getByRole('button', { name: 'Create shape' })).toBeEnabled()
  // A where clause that still matches too many is quoted in the warning.
  await whereField(page).fill('id > 0')
  await page.getByRole('button', { name: 'Create shape' }).click()
  await expect(page.getByRole('alert')).toHaveText(
    'Shape for table items with WHERE clause "id > 0" has 2000 rows. Consider refining the WHERE clause to reduce the number of rows for the shape.',
  )
  expect(shapes).toEqual([])
})

test('a where clause that narrows creates the shape: page 1 of 10 rows, in the table column order', async ({
  page,
  signIn,
  baseURL,
}) => {
  await sources.withItemsSource(page, signIn, baseURL)
  await page.goto('/shape-explorer')
  await tableButton(page, 'items').click()
  await expect(page.getByText(WARNING_2000)).toBeVisible()
  await whereField(page).fill('id <= 25')
  await page.getByRole('button', { name: 'Create shape' }).click()
  const grid = shapeGrid(page)
  await expect(grid).toContainText('1–10 of 25')
  await expect(gridRows(page)).toHaveCount(10)
  await expect(grid.getByRole('columnheader')).toHaveText([
    'id',
    'label',
    'qty',
  ])
  await expect(page.getByText(WARNING_2000)).toHaveCount(0)
  await expect(page).toHaveURL(/where=id/)
  // Created: the same clause is not offered again.
  await expect(
    page.getByRole('button', { name: 'Create shape' }),
  ).toBeDisabled()
  // The Shape Inspector on the same live shape: its snapshot's 25 rows, as a client gets them.
  await page.getByRole('button', { name: 'Inspect messages' }).click()
  const inspector = page.getByRole('dialog', { name: 'Shape Inspector' })
  await expect(
    inspector.getByRole('button', { name: 'Snapshot end · 25 rows' }),
  ).toBeVisible()
  await expect(
    inspector
      .getByRole('region', { name: 'Messages' })
      .getByRole('listitem')
      .first(),
  ).toHaveText(/^insert "public"."items"\/"1"/)
})

test('a where clause with a subquery shows rows moving in and out live', async ({
  page,
  signIn,
  baseURL,
}) => {
  const { database } = await sources.withItemsSource(page, signIn, baseURL)
  await page.goto('/shape-explorer')
  await tableButton(page, 'items').click()
  await whereField(page).fill('id IN (SELECT id FROM notes)')
  await page.getByRole('button', { name: 'Create shape' }).click()
  const grid = shapeGrid(page)
  await expect(grid).toContainText('1–3 of 3')
  // A note deleted: its item leaves the shape (a move-out, no delete of the item itself).
  await database.admin.query('delete from notes where id = 2')
  await expect(grid).toContainText('1–2 of 2')
  await expect(gridRows(page)).toHaveCount(2)
  // A note added: its item moves in.
  await database.admin.query(`insert into notes values (7, 'seventh')`)
  await expect(grid).toContainText('1–3 of 3')
  await expect(grid.getByRole('row', { name: /item-7/ })).toBeVisible()
})
