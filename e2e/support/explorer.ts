// Shape explorer e2e: real source databases holding known tables, added as sources of the
// signed-in user's teams and waited on until the engine has them active; the page's controls
// as a user finds them.
import type { APIRequestContext, Page } from '@playwright/test'
import type pg from 'pg'
import { expect } from './fixtures.ts'
import type { SourceDatabase } from './source-databases.ts'

/**
 * `items`: 2,000 rows (id 1..2000, label `item-N`, qty N % 50), over the explorer's 1,000-row
 * limit unless narrowed; `notes`: 3 rows. Both owned by the source's role, as the engine needs.
 */
export async function fillPublicTables(database: SourceDatabase) {
  await database.admin.query(`
    create table items (id int primary key, label text not null, qty int not null);
    insert into items select n, 'item-' || n, n % 50 from generate_series(1, 2000) n;
    create table notes (id int primary key, body text not null);
    insert into notes values (1, 'first'), (2, 'second'), (3, 'third');
    alter table items owner to ${database.name};
    alter table notes owner to ${database.name};
  `)
}

/** A table outside `public`: the sidebar then labels every table with its schema. */
export async function fillAuditSchema(database: SourceDatabase) {
  await database.admin.query(`
    create schema audit authorization ${database.name};
    create table audit.events (id int primary key, kind text not null);
    insert into audit.events values (1, 'login');
    alter table audit.events owner to ${database.name};
  `)
}

/** The too-many-rows warning for the whole of `items`, word for word. */
export const WARNING_2000 =
  'Shape for table items with empty where clause has 2000 rows. Consider refining the WHERE clause to reduce the number of rows for the shape.'

export async function personalTeam(request: APIRequestContext) {
  const teams = (await (await request.get('/api/v1/teams')).json()) as {
    id: string
    name: string
  }[]
  const team = teams[0]
  if (!team) throw new Error('the signed-in user has no team')
  return team
}

/** A second team the user belongs to, written as an operator would (teams have no create API). */
export async function addTeam(
  control: pg.Pool,
  email: string,
  name: string,
): Promise<string> {
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
}

/** Adds the database as a source of `teamId` and waits until the engine has it active. */
export async function addActiveSource(options: {
  request: APIRequestContext
  baseURL: string
  control: pg.Pool
  teamId: string
  databaseUrl: string
  /** Where the id goes once added, for the test's clean-up. */
  added: string[]
}): Promise<{ id: string; secret: string }> {
  const response = await options.request.put(
    '/api/v1/sources?skip_validation=true',
    {
      data: {
        region: 'eu-west-1',
        team_id: options.teamId,
        database_url: options.databaseUrl,
      },
      headers: { origin: options.baseURL },
    },
  )
  expect(response.status()).toBe(201)
  const { id, source_secret: secret } = (await response.json()) as {
    id: string
    source_secret: string
  }
  options.added.push(id)
  await expect
    .poll(
      async () =>
        (
          await options.control.query<{ state: string }>(
            'select state from sources where id = $1',
            [id],
          )
        ).rows[0]?.state,
      { message: `source ${id} to become active`, timeout: 60_000 },
    )
    .toBe('active')
  return { id, secret }
}

export const tableButton = (page: Page, label: string) =>
  page
    .getByRole('list', { name: 'Tables' })
    .getByRole('button', { name: label, exact: true })

export const whereField = (page: Page) =>
  page.getByRole('textbox', { name: 'Where clause' })

/** The grid with its footer (the pagination's '1–10 of N'). */
export const shapeGrid = (page: Page) =>
  page.getByRole('region', { name: 'Shape rows' })

export const tableField = (page: Page) =>
  page.getByRole('textbox', { name: 'Table', exact: true })

/** The grid's data rows on the page shown (the header row left out). */
export const gridRows = (page: Page) =>
  shapeGrid(page).locator('.MuiDataGrid-row')

/** Chooses an option of one of the sidebar's selects (Team, Source). */
export async function choose(page: Page, select: string, option: string) {
  await page.getByRole('combobox', { name: select }).click()
  await page.getByRole('option', { name: option, exact: true }).click()
}
