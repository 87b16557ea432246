// The Shape Explorer end to end (issue 15), against real source databases run by the real
// engine: choosing a team, a source and a table; the 1,000-row warning; where clauses creating
// live shapes; the search params reopening a shape; and the "Use this shape" snippet run as an
// app would run it.
import type { Page, Request } from '@playwright/test'
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import type { RunningPostgres } from '../src/server/control/embedded-postgres.ts'
import {
  addActiveSource,
  addTeam,
  choose,
  fillAuditSchema,
  fillPublicTables,
  gridRows,
  personalTeam,
  shapeGrid,
  tableButton,
  tableField,
  whereField,
} from './support/explorer.ts'
import { expect, test } from './support/fixtures.ts'
import {
  controlPlaneUrl,
  createSourceDatabase,
  startOwnPostgres,
  type SourceDatabase,
} from './support/source-databases.ts'

let control: pg.Pool
let usersServer: RunningPostgres
const databases: SourceDatabase[] = []
/** The sources the running test added, deleted after it so their slots go. */
let added: string[] = []

test.beforeAll(async () => {
  control = new pg.Pool({ connectionString: controlPlaneUrl(), max: 2 })
  // Every source holds a slot and a WAL sender: more than Postgres' default 10 for the file.
  usersServer = await startOwnPostgres({
    max_replication_slots: '40',
    max_wal_senders: '40',
  })
})
test.afterEach(async ({ page, context, baseURL }) => {
  // The page goes first: its live shape would see its source vanish (a 401 in the console).
  await page.close()
  for (const id of added)
    await context.request.delete(`/api/v1/sources/${id}`, {
      headers: { origin: baseURL ?? '' },
    })
  added = []
})
test.afterAll(async () => {
  // The whole cluster goes, slots and all: the sources of these throwaway users are left
  // reconnecting to it, as a source whose server is gone does (sources.spec.ts).
  for (const database of databases) await database.admin.end()
  await usersServer.stop()
  await control.end()
})

async function sourceDatabase(fill: (db: SourceDatabase) => Promise<void>) {
  const database = await createSourceDatabase(usersServer.url)
  databases.push(database)
  await fill(database)
  return database
}

const WARNING_2000 =
  'Shape for table items with WHERE clause "" (or empty where clause) has 2000 rows. Consider refining the WHERE clause to reduce the number of rows for the shape.'

/** A signed-in user whose team has one active source with `items` and `notes`. */
async function withItemsSource(
  page: Page,
  signIn: () => Promise<unknown>,
  baseURL: string | undefined,
) {
  await signIn()
  const database = await sourceDatabase(fillPublicTables)
  const team = await personalTeam(page.request)
  const source = await addActiveSource({
    request: page.request,
    baseURL: baseURL ?? '',
    control,
    teamId: team.id,
    databaseUrl: database.url,
    added,
  })
  return { database, team, source }
}

/** Opens items with `where` through the page, as a user does, and waits for its grid. */
async function openItemsShape(page: Page, where: string, total: number) {
  await page.goto('/shape-explorer')
  await tableButton(page, 'items').click()
  await expect(page.getByText(WARNING_2000)).toBeVisible()
  await whereField(page).fill(where)
  await whereField(page).press('Enter')
  await expect(shapeGrid(page)).toContainText(`1–10 of ${total}`)
}

/** The `where` of every row-count request the page makes, in order. */
function countRequests(page: Page): string[] {
  const wheres: string[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.pathname.endsWith('/count'))
      wheres.push(url.searchParams.get('where') ?? '')
  })
  return wheres
}

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
  test.setTimeout(120_000)
  const user = (await signIn()) as { email: string }
  const team = await personalTeam(page.request)
  const publicOnly = await sourceDatabase(fillPublicTables)
  const withAudit = await sourceDatabase(async (db) => {
    await fillPublicTables(db)
    await fillAuditSchema(db)
  })
  const otherTeamDb = await sourceDatabase(fillAuditSchema)
  const otherTeamId = await addTeam(control, user.email, 'Zed team')
  const add = (teamId: string, databaseUrl: string) =>
    addActiveSource({
      request: page.request,
      baseURL: baseURL ?? '',
      control,
      teamId,
      databaseUrl,
      added,
    })
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
  added.push(idle)

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
  const { database } = await withItemsSource(page, signIn, baseURL)
  // The page's timers run on a clock the test can move (the store's worker keeps real time).
  await page.clock.install()
  const reads: number[] = []
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith('/schema')) reads.push(1)
  })
  await page.goto('/shape-explorer')
  await expect(tableButton(page, 'items')).toBeVisible()
  await database.admin.query(
    `create table later (id int primary key); alter table later owner to ${database.name}`,
  )
  await page.clock.fastForward(59_000)
  await expect(tableButton(page, 'later')).toHaveCount(0)
  expect(reads).toHaveLength(1)
  await page.clock.fastForward(1_000)
  await expect(tableButton(page, 'later')).toBeVisible()
  expect(reads).toHaveLength(2)
  // A refetch keeps the list up meanwhile: no 'Loading schema...' flash.
  await expect(page.getByText('Loading schema...')).toHaveCount(0)
})

test('a table over 1,000 rows gets the warning word for word, and no shape', async ({
  page,
  signIn,
  baseURL,
}) => {
  await withItemsSource(page, signIn, baseURL)
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
  expect(shapes).toEqual([])
})

test('a where clause that narrows creates the shape: page 1 of 10 rows, in the table column order', async ({
  page,
  signIn,
  baseURL,
}) => {
  await withItemsSource(page, signIn, baseURL)
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
})

test('rows inserted, updated and deleted in Postgres show in the grid live', async ({
  page,
  signIn,
  baseURL,
}) => {
  const { database } = await withItemsSource(page, signIn, baseURL)
  await openItemsShape(page, 'id <= 25', 25)
  await database.admin.query(`insert into items values (0, 'live-row', 7)`)
  await expect(shapeGrid(page)).toContainText('1–10 of 26')
  // A new row comes last: page 3 of 26 rows.
  const next = page.getByRole('button', { name: 'Go to next page' })
  await next.click()
  await next.click()
  await expect(shapeGrid(page)).toContainText('21–26 of 26')
  await expect(shapeGrid(page).getByText('live-row')).toBeVisible()
  await database.admin.query(
    `update items set label = 'changed-row' where id = 0`,
  )
  await expect(shapeGrid(page).getByText('changed-row')).toBeVisible()
  await database.admin.query(`delete from items where id = 0`)
  await expect(shapeGrid(page)).toContainText('of 25')
  await expect(shapeGrid(page).getByText('changed-row')).toHaveCount(0)
})

test('Enter submits; Tab in an empty where field fills in the last where clause', async ({
  page,
  signIn,
  baseURL,
}) => {
  await withItemsSource(page, signIn, baseURL)
  await openItemsShape(page, 'id <= 25', 25)
  await tableButton(page, 'notes').click()
  await expect(tableField(page)).toHaveValue('notes')
  await expect(shapeGrid(page)).toContainText('1–3 of 3')
  await expect(whereField(page)).toHaveValue('')
  await whereField(page).focus()
  await page.keyboard.press('Tab')
  await expect(whereField(page)).toHaveValue('id <= 25')
  await expect(whereField(page)).toBeFocused()
  await whereField(page).fill('id <= 2')
  await page.keyboard.press('Enter')
  await expect(shapeGrid(page)).toContainText('1–2 of 2')
  // The field keeps the focus after Enter; with text in it, Tab moves on as usual.
  await expect(whereField(page)).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(whereField(page)).not.toBeFocused()
  await expect(whereField(page)).toHaveValue('id <= 2')
})

test('re-submitting the same where clause makes no request', async ({
  page,
  signIn,
  baseURL,
}) => {
  await withItemsSource(page, signIn, baseURL)
  const counts = countRequests(page)
  const snapshots: string[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.pathname === '/v1/shape' && url.searchParams.get('offset') === '-1')
      snapshots.push(url.searchParams.get('where') ?? '')
  })
  await openItemsShape(page, 'id <= 25', 25)
  await whereField(page).press('Enter')
  await whereField(page).fill('id <= 25 ')
  await whereField(page).press('Enter')
  // Coming back to the table brings its shape back, unasked.
  await tableButton(page, 'notes').click()
  await expect(shapeGrid(page)).toContainText('1–3 of 3')
  await tableButton(page, 'items').click()
  await expect(whereField(page)).toHaveValue('id <= 25')
  await expect(shapeGrid(page)).toContainText('1–10 of 25')
  // Something that does ask, so every request made before it has been seen.
  await whereField(page).fill('id <= 30')
  await whereField(page).press('Enter')
  await expect(shapeGrid(page)).toContainText('1–10 of 30')
  expect(counts).toEqual(['', 'id <= 25', '', 'id <= 30'])
  // Streams restart as the shape on screen changes, never for the same clause again.
  expect(snapshots).toEqual(['id <= 25', '', 'id <= 25', 'id <= 30'])
})

test('a newer request aborts the older, which then shows nothing', async ({
  page,
  signIn,
  baseURL,
}) => {
  await withItemsSource(page, signIn, baseURL)
  const held: Array<() => Promise<void>> = []
  await page.route('**/count?*', async (route) => {
    const where = new URL(route.request().url()).searchParams.get('where')
    if (where !== 'qty >= 0') return route.continue()
    // Held until the test lets it go; by then the page has given up on it.
    held.push(() => route.continue().catch(() => {}))
  })
  const aborted = page.waitForEvent(
    'requestfailed',
    (request: Request) =>
      new URL(request.url()).searchParams.get('where') === 'qty >= 0',
  )
  await page.goto('/shape-explorer')
  await tableButton(page, 'items').click()
  await expect(page.getByText(WARNING_2000)).toBeVisible()
  await whereField(page).fill('qty >= 0')
  await whereField(page).press('Enter')
  await expect.poll(() => held.length).toBe(1)
  await expect(page.getByText('Loading...')).toBeVisible()
  await whereField(page).fill('id <= 25')
  await whereField(page).press('Enter')
  expect((await aborted).failure()?.errorText).toContain('ABORTED')
  await expect(shapeGrid(page)).toContainText('1–10 of 25')
  for (const release of held) await release()
  await expect(page.getByRole('alert')).toHaveCount(0)
  await expect(shapeGrid(page)).toContainText('1–10 of 25')
})

test('the URL reopens the same shape, and back and forward step through shapes', async ({
  page,
  signIn,
  baseURL,
}) => {
  await withItemsSource(page, signIn, baseURL)
  await openItemsShape(page, 'id <= 25', 25)
  const url = page.url()
  expect(new URL(url).searchParams.get('where')).toBe('id <= 25')
  expect(new URL(url).searchParams.get('table')).toBe('public.items')

  // Opened afresh, as a bookmark or a shared link is. Not in a second tab: closing one can
  // make PGlite's tab coordination log "Channel is closed" in the other (src/app/db's).
  await page.goto('/sources')
  await page.goto(url)
  await expect(tableField(page)).toHaveValue('items')
  await expect(whereField(page)).toHaveValue('id <= 25')
  await expect(shapeGrid(page)).toContainText('1–10 of 25')

  await whereField(page).fill('id <= 12')
  await whereField(page).press('Enter')
  await expect(shapeGrid(page)).toContainText('1–10 of 12')
  await page.goBack()
  await expect(whereField(page)).toHaveValue('id <= 25')
  await expect(shapeGrid(page)).toContainText('1–10 of 25')
  await page.goForward()
  await expect(whereField(page)).toHaveValue('id <= 12')
  await expect(shapeGrid(page)).toContainText('1–10 of 12')
})

/** Runs a TypeScript module with tsx, as an app would, and hands back its first logged line. */
async function firstLogOf(code: string): Promise<unknown[]> {
  // Inside the repository, so the module's imports resolve to its node_modules.
  mkdirSync('.tmp', { recursive: true })
  const dir = mkdtempSync(join('.tmp', 'snippet-'))
  try {
    writeFileSync(join(dir, 'snippet.ts'), code)
    // The snippet logs rows; this wrapper writes each log call as one JSON line to read back.
    writeFileSync(
      join(dir, 'run.ts'),
      `console.log = (...values: unknown[]) => {
        process.stdout.write(JSON.stringify(values, (_k, v) => (typeof v === 'bigint' ? String(v) : v)) + '\\n')
      }
      await import('./snippet.ts')
      `,
    )
    const child = spawn(process.execPath, ['--import', 'tsx', 'run.ts'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    try {
      let output = ''
      for await (const chunk of child.stdout) {
        output += String(chunk)
        const line = output.split('\n')
        if (line.length > 1) return JSON.parse(line[0] ?? '') as unknown[]
      }
      throw new Error(
        `the snippet exited with ${child.exitCode} logging nothing`,
      )
    } finally {
      child.kill()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

test('the ShapeStream snippet, run as copied, returns the grid’s rows', async ({
  page,
  signIn,
  baseURL,
  context,
}) => {
  const { source } = await withItemsSource(page, signIn, baseURL)
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await openItemsShape(page, 'id <= 12', 12)
  const panel = page.getByRole('region', { name: 'Use this shape' })
  await panel.getByRole('tab', { name: 'ShapeStream' }).click()
  const shown = panel.getByLabel('ShapeStream snippet')
  // On screen the secret is masked; the copy holds it whole.
  await expect(shown).toContainText(
    `${source.secret.slice(0, 3)}***${source.secret.slice(-3)}`,
  )
  await expect(shown).not.toContainText(source.secret)
  await panel.getByRole('button', { name: 'Copy ShapeStream' }).click()
  const copied = await page.evaluate(() => navigator.clipboard.readText())
  expect(copied).toContain(source.secret)
  expect(copied).toContain(`${baseURL}/v1/shape`)

  const [rows] = (await firstLogOf(copied)) as [
    Array<{ id: number; label: string; qty: number }>,
  ]
  expect(rows.map((row) => row.id).sort((a, b) => a - b)).toEqual(
    Array.from({ length: 12 }, (_, i) => i + 1),
  )
  // The grid's first page shows the same rows.
  const firstPage = await gridRows(page)
    .locator('[data-field="label"]')
    .allTextContents()
  expect(firstPage).toHaveLength(10)
  for (const label of firstPage)
    expect(rows.map((row) => row.label)).toContain(label)
})
