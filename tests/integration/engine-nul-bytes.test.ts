// Postgres text cannot hold U+0000: a NUL in any shape parameter (query or subset body) is a
// 400 in Electric's format naming the parameter, never a shape that fails with Postgres's words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'

const NUL = '\u0000'
const REFUSED = ['must not contain a NUL character']

let source: TestDatabase
let engine: TestEngine

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(`
    create table tasks (id int primary key, title text);
    insert into tasks values (1, 'one'), (2, 'two')`)
  engine = await startTestEngine(source.url)
}, 60_000)

afterAll(async () => {
  await engine?.destroy()
  await source?.drop()
})

async function get(query: Record<string, string>, init?: RequestInit) {
  const response = await fetch(
    `${engine.shapeUrl}?${new URLSearchParams(query)}`,
    init,
  )
  return { status: response.status, body: (await response.json()) as unknown }
}

const refused = (errors: Record<string, unknown>) => ({
  status: 400,
  body: { message: 'Invalid request', errors },
})

describe('a NUL in a shape parameter', () => {
  const shape = { table: 'tasks', offset: '-1' }

  it.each([
    ['table', { table: `tasks${NUL}` }],
    ['where', { where: `title = 'o${NUL}ne'` }],
    ['columns', { columns: `id,ti${NUL}tle` }],
    ['params', { where: 'title = $1', 'params[1]': `o${NUL}ne` }],
    ['params', { where: 'title = $1', params: JSON.stringify([`o${NUL}`]) }],
    ['cursor', { cursor: `c${NUL}` }],
    ['replica', { replica: `full${NUL}` }],
  ])('%s is refused', async (param, extra) => {
    expect(await get({ ...shape, ...extra })).toEqual(
      refused({ [param]: REFUSED }),
    )
  })

  it('handle is refused', async () => {
    expect(await get({ ...shape, offset: '0_0', handle: `h${NUL}` })).toEqual(
      refused({ handle: REFUSED }),
    )
  })

  it('a subset field in the query or the body is refused', async () => {
    expect(await get({ ...shape, subset__where: `title = 'o${NUL}'` })).toEqual(
      refused({ subset: { where: REFUSED } }),
    )
    expect(
      await get({
        ...shape,
        subset__where: 'title = $1',
        'subset__params[1]': `o${NUL}`,
      }),
    ).toEqual(refused({ subset: { params: REFUSED } }))
    const body = await get(shape, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ where: 'title = $1', params: [`o${NUL}`] }),
    })
    expect(body).toEqual(refused({ subset: { params: REFUSED } }))
  })

  it('the same shape without the NUL is served', async () => {
    const answer = await get({
      ...shape,
      where: 'title = $1',
      'params[1]': 'one',
    })
    expect(answer.status).toBe(200)
  })
})

// The where compiler refuses these itself (as Postgres would): a guard that they stay refused.
describe('a NUL a where clause spells out is a 400 on where', () => {
  it.each([["title = E'\\x00'"], ["title = U&'\\0000'"], ['title = chr(0)']])(
    '%s',
    async (where) => {
      const answer = await get({ table: 'tasks', offset: '-1', where })
      expect(answer).toEqual(refused({ where: [expect.any(String)] }))
    },
  )
})
