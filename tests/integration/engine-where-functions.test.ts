// The where language's functions end to end, with the official client: the snapshot (the
// clause run by Postgres) and live changes (the engine's evaluator) select the same rows for
// time zones, array subscripts, interval functions and like().
import { Shape, ShapeStream, type Row } from '@electric-sql/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'

let source: TestDatabase
let engine: TestEngine
const streams: AbortController[] = []

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(`
    create table events (
      id int primary key, at timestamptz, zone text, tags text[], span interval, name text
    )`)
  engine = await startTestEngine(source.url)
}, 60_000)

afterAll(async () => {
  for (const c of streams) c.abort()
  await engine?.destroy()
  await source?.drop()
})

function shapeOf(where: string, params?: Record<string, string>) {
  const aborter = new AbortController()
  streams.push(aborter)
  const stream = new ShapeStream({
    url: engine.shapeUrl,
    params: { table: 'events', where, params },
    signal: aborter.signal,
  })
  return new Shape(stream)
}

const ids = (rows: Row[]) => rows.map((r) => Number(r.id)).sort((a, b) => a - b)

// Rows 1-4 are there before the shapes start (their snapshot), 11-14 the same values later
// (replication): each shape must pick the same ones among both.
const VALUES = [
  // A local midnight on 2024-03-10 in New York (EST, before the change to EDT at 02:00).
  `'2024-03-10 05:00+00', 'America/New_York', '{x,y}', '1 day 2 hours', 'alpha'`,
  `'2024-03-10 07:30+00', 'Asia/Kolkata', '{y}', '23 hours', 'beta'`,
  `'2024-11-03 05:30+00', 'UTC+3', '{x}', '30 hours', 'able'`,
  `null, null, null, null, null`,
]
const insert = (first: number) =>
  `insert into events values ${VALUES.map((v, i) => `(${first + i}, ${v})`).join(', ')}`

const SHAPES: [string, string, Record<string, string>?][] = [
  ["(at AT TIME ZONE 'America/New_York')::time < '02:00'", 'zone name'],
  [
    '(at AT TIME ZONE zone)::date = $1',
    'zone from a column',
    { 1: '2024-03-10' },
  ],
  ["timezone('EST', at) < '2024-03-10 01:00'", 'abbreviation'],
  ["tags[1] = 'x' AND tags[2:] = '{y}'", 'subscripts'],
  [
    "justify_hours(span) >= interval '1 day' AND span * 0.5 < interval '14 hours'",
    'intervals',
  ],
  ["like(name, 'a%') AND int4('1') = 1", 'like() and a cast'],
]

describe('where functions: snapshot and live changes agree', () => {
  it.each(SHAPES)('%s (%s)', async (where, _what, params) => {
    await source.db.query('delete from events')
    await source.db.query(insert(1))
    const shape = shapeOf(where, params)
    const initial = ids(await shape.rows)
    expect(initial.length).toBeGreaterThan(0)
    expect(initial.length).toBeLessThan(4)
    await source.db.query(insert(11))
    await expect
      .poll(() => ids(shape.currentRows))
      .toEqual([...initial, ...initial.map((id) => id + 10)])
  })
})
