// Subsets with huge IN lists, three at once, against a shape of 10,000 rows: a list past the
// where compiler's MAX_LIST_ITEMS is refused with a 400 naming the limit, before it is compiled
// item by item (which held the engine's loop); one within it is answered. The loop lag itself
// is measured by `npm run bench:engine -- --subset-in`, not here: timings are not tested.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { MAX_LIST_ITEMS, MAX_PARAMS } from '../../src/engine/where/limits.ts'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'

let source: TestDatabase
let engine: TestEngine
const ROWS = 10_000

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(
    `create table items (id int primary key, title text);
     insert into items select i, 'row ' || i from generate_series(1, ${ROWS}) i`,
  )
  engine = await startTestEngine(source.url)
}, 60_000)

afterAll(async () => {
  await engine?.destroy()
  await source?.drop()
})

const ids = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1))
const asParams = (n: number) => ({
  where: `id IN (${ids(n).map((id) => `$${id}`)})`,
  params: ids(n),
})
const asLiterals = (n: number) => ({ where: `id IN (${ids(n)})` })

/** Three POSTs of `body` at once: each one's status and body. */
function threeAtOnce(body: object) {
  return Promise.all(
    [1, 2, 3].map(async () => {
      const response = await fetch(`${engine.shapeUrl}?table=items&offset=-1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      return {
        status: response.status,
        body: (await response.json()) as { data: unknown[] },
      }
    }),
  )
}

const refusal = (message: string) => ({
  status: 400,
  body: {
    message: 'Invalid request',
    errors: { subset: { where: [message] } },
  },
})
const TOO_LONG = `where clause has a list of more than ${MAX_LIST_ITEMS} items (an IN list, ARRAY[...], a call's arguments, or terms joined by AND/OR); pass many values as one array param, as in id = ANY($1)`

it('refuses 10,000-item IN lists, three at once, naming the limit', async () => {
  expect(await threeAtOnce(asLiterals(10_000))).toEqual(
    Array(3).fill(refusal(TOO_LONG)),
  )
  expect(await threeAtOnce(asParams(10_000))).toEqual(
    Array(3).fill(refusal(`too many parameters (more than ${MAX_PARAMS})`)),
  )
})

it('refuses a list just past the limit, one the compiler took before', async () => {
  expect(await threeAtOnce(asLiterals(MAX_LIST_ITEMS + 1))).toEqual(
    Array(3).fill(refusal(TOO_LONG)),
  )
})

it('answers lists within the limit, and many values as one array param', async () => {
  const bodies: Array<{ where: string; params?: string[] }> = [
    asLiterals(MAX_LIST_ITEMS),
    asParams(MAX_LIST_ITEMS),
    { where: 'id = ANY($1)', params: [`{${ids(ROWS)}}`] },
  ]
  for (const body of bodies) {
    const answers = await threeAtOnce(body)
    const counts = answers.map((a) => a.status === 200 && a.body.data.length)
    const expected = body.params?.length === 1 ? ROWS : MAX_LIST_ITEMS
    expect(counts).toEqual([expected, expected, expected])
  }
})
