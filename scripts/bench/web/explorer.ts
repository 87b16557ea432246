// The shape explorer's figures: a table click to the first rows of its shape in the
// grid, on a table of exactly 1,000 rows (the most a shape may hold without the warning), and
// commit-to-grid: a row changed in the source's own database, timed to its new value on screen.
// The source is a real database on the benchmark's Postgres, run by the real engine.
import type { BrowserContext, Page } from '@playwright/test'
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { SHAPE_ROW_LIMIT } from '../../../src/shared/constants.ts'
import {
  seenText,
  trackShapes,
  waitForLiveShapes,
  watchText,
} from './browser.ts'
import type { Cleanup } from './cleanup.ts'
import { commitToScreen, type LatencyResult } from './latency.ts'
import type { RunningServer } from './server.ts'
import { until } from './wait.ts'

export type ExplorerResult = {
  /** Click on the table to its first row in the grid, per visit (Infinity: never shown). */
  clickToRows: number[]
  commitToGrid: LatencyResult | null
}

export const EXPLORER_TABLE = 'orders'
const TABLE = EXPLORER_TABLE
// Every row's `kind`: the first such cell in the DOM is the first row on screen.
const CELL = 'bench-cell'
const ROWS_TIMEOUT_MS = 60_000

/** A database of its own with a role that owns it and may replicate, as a user's would be. */
export async function sourceDatabase(server: RunningServer, cleanup: Cleanup) {
  const name = `bench_src_${randomUUID().slice(0, 8)}`
  const password = randomUUID()
  const root = new pg.Client({ connectionString: server.postgresUrl })
  await root.connect()
  try {
    await root.query(
      `create role ${name} login replication password '${password}'`,
    )
    await root.query(`create database ${name} owner ${name}`)
  } finally {
    await root.end()
  }
  const url = Object.assign(new URL(server.postgresUrl), {
    pathname: `/${name}`,
    username: name,
    password,
  }).toString()
  const db = new pg.Pool({ connectionString: url, max: 2 })
  db.on('error', () => {})
  cleanup.add('source database pool', () => db.end())
  await db.query(
    `create table ${TABLE} (id int primary key, kind text not null, label text not null)`,
  )
  await db.query(
    `insert into ${TABLE} select n, $1, 'order-' || n from generate_series(1, $2) n`,
    [CELL, SHAPE_ROW_LIMIT],
  )
  return { url, db }
}

/** Adds the database as a source of the user's team, and waits for the engine to run it. */
export async function addSource(
  context: BrowserContext,
  server: RunningServer,
  databaseUrl: string,
) {
  const teams = (await (await context.request.get('/api/v1/teams')).json()) as {
    id: string
  }[]
  const teamId = teams[0]?.id
  if (!teamId) throw new Error('the benchmark user has no team')
  const response = await context.request.put(
    '/api/v1/sources?skip_validation=true',
    {
      data: { region: 'eu-west-1', team_id: teamId, database_url: databaseUrl },
      headers: { origin: server.url },
    },
  )
  if (response.status() !== 201)
    throw new Error(
      `adding the explorer's source answered ${response.status()}`,
    )
  const { id } = (await response.json()) as { id: string }
  await until(async () => {
    const { rows } = await server.db.query<{ state: string }>(
      'select state from sources where id = $1',
      [id],
    )
    return rows[0]?.state === 'active'
  }, 'the explorer source to become active')
  return { teamId, sourceId: id }
}

/**
 * One visit: the explorer opened on the source and settled (the store open, every dashboard
 * shape caught up, as when a user gets to choosing), then the table clicked; ms to its rows.
 */
async function clickToRows(page: Page, path: string): Promise<number> {
  const shapes = trackShapes(page)
  await page.goto(path)
  const table = page
    .getByRole('list', { name: 'Tables' })
    .getByRole('button', { name: TABLE, exact: true })
  await table.waitFor()
  await waitForLiveShapes(shapes)
  // Taken in the page, on the clock the probe's sightings use.
  await page.evaluate(
    "addEventListener('click', () => { globalThis.__sluiceClickAt = performance.now() }, { capture: true, once: true })",
  )
  await watchText(page, CELL)
  await table.click()
  const sighting = await seenText(page, CELL, ROWS_TIMEOUT_MS)
  if (!sighting) return Infinity
  const clickAt = (await page.evaluate('globalThis.__sluiceClickAt')) as number
  return sighting.sinceNavigationMs - clickAt
}

export async function measureExplorer(options: {
  context: BrowserContext
  server: RunningServer
  cleanup: Cleanup
  visits: number
  samples: number
  budgetMs: number
  log: (line: string) => void
}): Promise<ExplorerResult> {
  const { context, server, log } = options
  const source = await sourceDatabase(server, options.cleanup)
  const { teamId, sourceId } = await addSource(context, server, source.url)
  const path = `/shape-explorer?teamId=${teamId}&sourceId=${sourceId}`
  const result: ExplorerResult = { clickToRows: [], commitToGrid: null }
  // Each visit a new tab: nothing remembered, so the click asks for the count and the shape.
  let page: Page | null = null
  for (let k = 0; k < options.visits; k++) {
    await page?.close()
    page = await context.newPage()
    const ms = await clickToRows(page, path)
    result.clickToRows.push(ms)
    log(
      `  click ${k + 1}: ${Number.isFinite(ms) ? `${ms.toFixed(0)} ms` : 'timeout'}`,
    )
  }
  if (!page) return result
  // A row on the grid's first page: its label changes, its place does not.
  const id = await page
    .locator('.MuiDataGrid-row')
    .first()
    .locator('[data-field="id"]')
    .textContent()
  log(`commit-to-grid: ${options.samples} changes of row ${id}`)
  result.commitToGrid = await commitToScreen({
    page,
    commit: (text) =>
      source.db.query(`update ${TABLE} set label = $1 where id = $2`, [
        text,
        Number(id),
      ]),
    samples: options.samples,
    prefix: 'g',
    budgetMs: options.budgetMs,
    log,
  })
  await page.close()
  return result
}
