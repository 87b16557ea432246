// A source's live shapes end to end, against a real source database: an app's shape (the
// official ShapeStream, run here in Node against /v1/shape) shows up live in the source page's
// Live shapes table; deleting it there rotates it: its row goes, and the app's stream gets its
// 409 and carries on under a new handle. Inspect opens the Shape Inspector on it: what the app
// received from the start, from a transaction picked on its timeline, and the rows changed
// between two offsets. On a phone each shape, and the Inspector, reads without scrolling sideways.
import {
  isChangeMessage,
  isControlMessage,
  ShapeStream,
  type Row,
} from '@electric-sql/client'
import type { APIRequestContext } from '@playwright/test'
import pg from 'pg'
import type { RunningPostgres } from '../src/server/platform/db/embedded-postgres.ts'
import { expect, test } from './support/fixtures.ts'
import {
  controlPlaneUrl,
  createSourceDatabase,
  startOwnPostgres,
  storedSource,
  type SourceDatabase,
} from './support/source-databases.ts'

let control: pg.Pool
let usersServer: RunningPostgres
const databases: SourceDatabase[] = []

test.beforeAll(async () => {
  control = new pg.Pool({ connectionString: controlPlaneUrl(), max: 2 })
  usersServer = await startOwnPostgres()
})
test.afterAll(async () => {
  // Emptied as it goes: a worker can run this file's tests in several stretches, each with
  // its own beforeAll and afterAll, and must not end a pool twice.
  for (const database of databases.splice(0)) await database.drop()
  await usersServer.stop()
  await control.end()
})

type ActiveSource = { id: string; teamId: string; secret: string }

/** A source over a database of its own with an `items` table (ids 1 to 5), once active. */
async function activeSource(
  request: APIRequestContext,
  baseURL: string,
): Promise<ActiveSource> {
  const database = await createSourceDatabase(usersServer.url)
  databases.push(database)
  // As the source's role, which must own the table to publish it.
  const owner = new pg.Client({ connectionString: database.url })
  await owner.connect()
  try {
    await owner.query(`create table items (id int primary key, title text);
      insert into items select g, 'item ' || g from generate_series(1, 5) g`)
  } finally {
    await owner.end()
  }
  const teams = (await (await request.get('/api/v1/teams')).json()) as {
    id: string
  }[]
  const teamId = teams[0]?.id ?? ''
  const response = await request.put('/api/v1/sources?skip_validation=true', {
    data: { region: 'eu-west-1', team_id: teamId, database_url: database.url },
    headers: { origin: baseURL },
  })
  expect(response.status()).toBe(201)
  const { id, source_secret } = (await response.json()) as {
    id: string
    source_secret: string
  }
  await expect
    .poll(async () => (await storedSource(control, id))?.state, {
      timeout: 30_000,
    })
    .toBe('active')
  return { id, teamId, secret: source_secret }
}

/** Deleted through the product, so its slot leaves the database before the database goes. */
async function removeSource(
  request: APIRequestContext,
  baseURL: string,
  id: string,
) {
  await request.delete(`/api/v1/sources/${id}`, {
    headers: { origin: baseURL },
  })
  await expect
    .poll(() => storedSource(control, id), { timeout: 30_000 })
    .toBeNull()
}

/** An app's live stream of `items` with id <= 2, as an app would write it. */
function appStream(baseURL: string, source: ActiveSource) {
  const aborter = new AbortController()
  const stream = new ShapeStream<Row>({
    url: `${baseURL}/v1/shape`,
    params: {
      source_id: source.id,
      source_secret: source.secret,
      table: 'items',
      where: 'id <= $1',
      params: ['2'],
    },
    signal: aborter.signal,
  })
  const rows = new Map<string, Row>()
  const seen = { refetched: false, updates: 0 }
  stream.subscribe((messages) => {
    for (const message of messages) {
      if (
        isControlMessage(message) &&
        message.headers.control === 'must-refetch'
      ) {
        seen.refetched = true
        rows.clear()
      }
      if (!isChangeMessage(message)) continue
      if (message.headers.operation === 'update') seen.updates++
      if (message.headers.operation === 'delete') rows.delete(message.key)
      else rows.set(message.key, { ...rows.get(message.key), ...message.value })
    }
  })
  const ids = () => [...rows.values()].map((row) => Number(row.id)).sort()
  return { stream, ids, seen, stop: () => aborter.abort() }
}

test("an app's shape is listed live, and deleting it rotates it: the app refetches and carries on", async ({
  page,
  signIn,
  baseURL,
}) => {
  await signIn()
  const source = await activeSource(page.request, baseURL ?? '')
  await page.goto(`/teams/${source.teamId}/${source.id}`)
  const table = page.getByRole('table', { name: 'Live shapes' })
  await expect(table.getByText('No live shapes')).toBeVisible()

  const app = appStream(baseURL ?? '', source)
  try {
    await expect.poll(() => app.ids()).toEqual([1, 2])
    const first = app.stream.shapeHandle ?? ''
    expect(first).not.toBe('')

    // Listed without a reload, with what the app asked for and what it holds.
    const row = table.getByRole('row').filter({ hasText: first })
    await expect(row).toBeVisible()
    await expect(row).toContainText('items')
    await expect(row).toContainText('id <= $1')
    await expect(row).toContainText("$1 = '2'")
    await expect(row.getByRole('cell').nth(2)).toHaveText('2')
    await expect(table.getByText('No live shapes')).toHaveCount(0)

    await row.getByRole('button', { name: 'Delete' }).click()
    const dialog = page.getByRole('dialog')
    await expect(dialog).toContainText('refetches a fresh snapshot')
    await dialog.getByRole('button', { name: 'Delete' }).click()
    await expect(dialog).toBeHidden()
    await expect(table.getByRole('row').filter({ hasText: first })).toHaveCount(
      0,
    )

    // The app got its 409 and carries on: a new handle, its rows again, changes still come.
    await expect.poll(() => app.seen.refetched).toBe(true)
    await expect.poll(() => app.stream.shapeHandle).not.toBe(first)
    await expect.poll(() => app.ids()).toEqual([1, 2])
    const second = app.stream.shapeHandle ?? ''
    await expect(
      table.getByRole('row').filter({ hasText: second }),
    ).toBeVisible()
    const owner = new pg.Client({
      connectionString: databases.at(-1)?.url ?? '',
    })
    await owner.connect()
    try {
      await owner.query(`insert into items values (0, 'item 0')`)
    } finally {
      await owner.end()
    }
    await expect.poll(() => app.ids()).toEqual([0, 1, 2])
  } finally {
    app.stop()
    await removeSource(page.request, baseURL ?? '', source.id)
  }
})

test('the Shape Inspector shows what the app received from the start and from a transaction, and compares two offsets', async ({
  page,
  signIn,
  baseURL,
}) => {
  await signIn()
  const source = await activeSource(page.request, baseURL ?? '')
  const app = appStream(baseURL ?? '', source)
  try {
    await expect.poll(() => app.ids()).toEqual([1, 2])
    const handle = app.stream.shapeHandle ?? ''
    const owner = new pg.Client({
      connectionString: databases.at(-1)?.url ?? '',
    })
    await owner.connect()
    try {
      await owner.query(`update items set title = 'first!' where id = 1`)
    } finally {
      await owner.end()
    }
    await expect.poll(() => app.seen.updates).toBe(1)

    await page.goto(`/teams/${source.teamId}/${source.id}`)
    const table = page.getByRole('table', { name: 'Live shapes' })
    await table
      .getByRole('row')
      .filter({ hasText: handle })
      .getByRole('button', { name: 'Inspect' })
      .click()
    const inspector = page.getByRole('dialog', { name: 'Shape Inspector' })
    const messages = inspector.getByRole('region', { name: 'Messages' })
    // From the start: the snapshot's rows, its end, the update, caught up.
    await expect(messages.getByRole('listitem')).toHaveText([
      /^insert "public"."items"\/"1"/,
      /^insert "public"."items"\/"2"/,
      /^snapshot-end/,
      /^update "public"."items"\/"1"value: \{"id":"1","title":"first!"\}/,
      /^up-to-date/,
    ])
    await expect(messages).toContainText('Caught up')
    await expect(
      inspector.getByRole('region', { name: 'Answers' }).getByRole('listitem'),
    ).not.toHaveCount(0)
    await expect(
      inspector.getByRole('region', { name: 'Answers' }),
    ).toContainText(/From -1: 3 messages, \d+ B/)

    // Picked on the timeline: the client that stood before the update receives it alone.
    const timeline = inspector.getByRole('region', { name: 'Timeline' })
    await expect(
      timeline.getByRole('button', { name: 'Snapshot end · 2 rows' }),
    ).toBeVisible()
    await timeline
      .getByRole('button', { name: /^Transaction \d+ · 1 message$/ })
      .click()
    await expect(messages.getByRole('listitem')).toHaveText([
      /^update "public"."items"\/"1"/,
      /^up-to-date/,
    ])
    const transaction = await inspector
      .getByLabel('Offset', { exact: true })
      .inputValue()
    expect(transaction).toMatch(/^\d+_(\d+|inf)$/)

    // Between the start and that offset: the snapshot's two rows.
    const compare = inspector.getByRole('region', { name: 'Compare offsets' })
    await compare.getByLabel('To offset').fill(transaction)
    await compare.getByRole('button', { name: 'Compare' }).click()
    await expect(compare).toContainText(
      `2 rows changed between -1 and ${transaction}`,
    )
    await expect(
      compare.getByRole('list', { name: 'Changed rows' }).getByRole('listitem'),
    ).toHaveText([
      '"public"."items"/"1": insert',
      '"public"."items"/"2": insert',
    ])
    await inspector.getByRole('button', { name: 'Close' }).click()
    await expect(inspector).toBeHidden()
  } finally {
    app.stop()
    await removeSource(page.request, baseURL ?? '', source.id)
  }
})

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 740 } })

  test('each live shape reads without scrolling sideways', async ({
    page,
    signIn,
    baseURL,
  }) => {
    await signIn()
    const source = await activeSource(page.request, baseURL ?? '')
    // A long where clause with a param, as an app may send: it must wrap, not widen the page.
    const where = `title <> $1 and ${Array.from({ length: 8 }, (_, i) => `id <> ${100 + i}`).join(' and ')}`
    const query = new URLSearchParams({
      source_id: source.id,
      source_secret: source.secret,
      table: 'items',
      where,
      'params[1]': 'a title nobody gave any item',
      offset: '-1',
    })
    try {
      const answer = await page.request.get(`/v1/shape?${query}`)
      expect(answer.status()).toBe(200)
      await page.goto(`/teams/${source.teamId}/${source.id}`)
      const list = page.getByRole('region', { name: 'Live shapes' })
      const parts = [
        list.getByText('items', { exact: true }),
        list.getByText(where, { exact: true }),
        list.getByText("$1 = 'a title nobody gave any item'"),
        list.getByRole('button', { name: 'Inspect' }),
        list.getByRole('button', { name: 'Delete' }),
      ]
      for (const part of parts) {
        await expect(part).toBeVisible()
        const box = await part.boundingBox()
        expect(box).not.toBeNull()
        expect(box!.x).toBeGreaterThanOrEqual(0)
        expect(box!.x + box!.width).toBeLessThanOrEqual(375)
      }
      const pageWidth = await page.evaluate(
        () => document.documentElement.scrollWidth,
      )
      expect(pageWidth).toBeLessThanOrEqual(375)
      // The Inspector takes the whole screen, its long lines wrapped.
      await list.getByRole('button', { name: 'Inspect' }).click()
      const inspector = page.getByRole('dialog', { name: 'Shape Inspector' })
      await expect(
        inspector
          .getByRole('region', { name: 'Messages' })
          .getByRole('listitem'),
      ).not.toHaveCount(0)
      expect(
        await inspector.evaluate(
          (dialog) => dialog.getBoundingClientRect().right,
        ),
      ).toBeLessThanOrEqual(375)
      expect(
        await inspector.evaluate(
          (dialog) => dialog.scrollWidth <= dialog.clientWidth,
        ),
      ).toBe(true)
    } finally {
      await removeSource(page.request, baseURL ?? '', source.id)
    }
  })
})
