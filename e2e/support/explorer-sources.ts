// Source databases for the shape explorer's specs: a Postgres of the spec file's own for the
// users' databases, sources added to the signed-in user's teams and deleted after each test.
// useExplorerSources() registers the hooks, so a spec calls it once at its top level.
import type { Page } from '@playwright/test'
import pg from 'pg'
import type { RunningPostgres } from '../../src/server/platform/db/embedded-postgres.ts'
import {
  addActiveSource,
  fillPublicTables,
  personalTeam,
  shapeGrid,
  tableButton,
  whereField,
  WARNING_2000,
} from './explorer.ts'
import { expect, test } from './fixtures.ts'
import {
  controlPlaneUrl,
  createSourceDatabase,
  startOwnPostgres,
  type SourceDatabase,
} from './source-databases.ts'

export function useExplorerSources() {
  let control: pg.Pool | undefined
  let usersServer: RunningPostgres | undefined
  const databases: SourceDatabase[] = []
  // The sources the running test added, deleted after it so their slots go.
  let added: string[] = []

  test.beforeAll(async () => {
    control = new pg.Pool({ connectionString: controlPlaneUrl(), max: 2 })
    // Every source holds a slot and a WAL sender: more than Postgres' default 10 a file.
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
    // The whole cluster goes, slots and all: a source whose removal is still under way is
    // left reconnecting to it, as a source whose server is gone does (sources.spec.ts).
    // Emptied as it goes: a worker can run this file's tests in several stretches, each with
    // its own beforeAll and afterAll, and must not end a pool twice.
    for (const database of databases.splice(0)) await database.admin.end()
    await usersServer?.stop()
    await control?.end()
  })

  const controlPlane = () => {
    if (!control) throw new Error('used outside a test')
    return control
  }

  async function sourceDatabase(fill: (db: SourceDatabase) => Promise<void>) {
    if (!usersServer) throw new Error('used outside a test')
    const database = await createSourceDatabase(usersServer.url)
    databases.push(database)
    await fill(database)
    return database
  }

  /** Adds `databaseUrl` as a source of `teamId`, active before it returns. */
  const addSource = (
    page: Page,
    baseURL: string | undefined,
    teamId: string,
    databaseUrl: string,
  ) =>
    addActiveSource({
      request: page.request,
      baseURL: baseURL ?? '',
      control: controlPlane(),
      teamId,
      databaseUrl,
      added,
    })

  return {
    controlPlane,
    sourceDatabase,
    addSource,
    /** For a source added some other way: deleted after the test too. */
    added: (id: string) => added.push(id),

    /** A signed-in user whose team has one active source with `items` and `notes`. */
    async withItemsSource(
      page: Page,
      signIn: () => Promise<unknown>,
      baseURL: string | undefined,
    ) {
      await signIn()
      const database = await sourceDatabase(fillPublicTables)
      const team = await personalTeam(page.request)
      const source = await addSource(page, baseURL, team.id, database.url)
      return { database, team, source }
    },
  }
}

/** Opens items with `where` through the page, as a user does, and waits for its grid. */
export async function openItemsShape(page: Page, where: string, total: number) {
  await page.goto('/shape-explorer')
  await tableButton(page, 'items').click()
  await expect(page.getByText(WARNING_2000)).toBeVisible()
  await whereField(page).fill(where)
  await whereField(page).press('Enter')
  await expect(shapeGrid(page)).toContainText(`1–10 of ${total}`)
}
