// Shape requests whose where clause would hold the engine's event loop: each is answered with
// Electric's 400 naming the where clause, and the engine keeps serving other shapes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'

let source: TestDatabase
let engine: TestEngine

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(
    `create table items (id int primary key, title text);
     insert into items values (1, 'one'), (2, 'two')`,
  )
  engine = await startTestEngine(source.url)
}, 60_000)

afterAll(async () => {
  await engine?.destroy()
  await source?.drop()
})

const shape = (where: string) =>
  fetch(
    `${engine.shapeUrl}?table=items&offset=-1&where=${encodeURIComponent(where)}`,
  )

async function refused(where: string): Promise<string> {
  const response = await shape(where)
  expect(response.status).toBe(400)
  const body = (await response.json()) as {
    message: string
    errors: { where: string[] }
  }
  expect(body.message).toBe('Invalid request')
  return body.errors.where[0] ?? ''
}

describe('where clauses past the limits', () => {
  it('computes a base near 1 to a huge power instead of stalling', async () => {
    const response = await shape('id::numeric < 1.0000000001 ^ 10000000')
    expect(response.status).toBe(200)
    const rows = (await response.json()) as Array<{ value?: { id: string } }>
    expect(rows.flatMap((m) => (m.value ? [m.value.id] : []))).toEqual(['1'])
  })

  it('refuses a power past numeric weight', async () => {
    expect(await refused('id::numeric < 2 ^ 1000000::numeric')).toBe(
      'value overflows numeric format',
    )
  })

  it('refuses constants costing more than the evaluation budget', async () => {
    const big = '(1e60000::numeric)::text'
    expect(await refused(`title = ${big} || ${big}`)).toBe(
      'where clause is too costly to evaluate (its work budget is exceeded)',
    )
  })

  it.each([
    ['2,500 chained NOTs', `${'not '.repeat(2500)}true`],
    ['a 3,500-term sum', `id = ${Array(3500).fill('1').join('+')}`],
  ])('refuses %s as nested too deeply', async (_label, where) => {
    expect(await refused(where)).toBe(
      'where clause is nested too deeply (more than 100 levels)',
    )
  })

  it('still serves other shapes afterwards', async () => {
    const response = await shape('id = 2')
    expect(response.status).toBe(200)
  })
})
