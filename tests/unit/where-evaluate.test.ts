// The evaluator on rows as replication sends them (Postgres text output, NULL as null), and
// the snapshot SQL it is paired with: bound, typed params and quoted identifiers.
import { describe, expect, it } from 'vitest'
import { compileWhere } from '../../src/engine/where/index.ts'
import type { ColumnInfo } from '../../src/engine/where/types.ts'

type Row = Record<string, string | null>

const column = (name: string, type: string, extra: Partial<ColumnInfo> = {}) =>
  [name, { name, type, typeOid: 0, dims: 0, notNull: false, ...extra }] as const

const columns = new Map<string, ColumnInfo>([
  column('id', 'int4'),
  column('big', 'int8'),
  column('num', 'numeric'),
  column('f8', 'float8'),
  column('flag', 'bool'),
  column('name', 'text'),
  column('padded', 'bpchar'),
  column('d', 'date'),
  column('ts', 'timestamptz'),
  column('ids', 'int4', { dims: 1 }),
  column('tags', 'text', { dims: 1 }),
  column('team_id', 'uuid'),
  column('Weird"Name', 'text'),
])

async function matching(where: string, rows: Row[], params: string[] = []) {
  const compiled = await compileWhere(where, params, columns)
  return rows.map((row) => compiled.matches(row))
}

const flags: Row[] = [{ flag: 't' }, { flag: 'f' }, { flag: null }]

describe('three-valued logic', () => {
  it.each([
    ['flag', [true, false, false]],
    ['NOT flag', [false, true, false]],
    ['flag AND NULL', [false, false, false]],
    ['NOT (flag AND NULL)', [false, true, false]],
    ['flag OR NULL', [true, false, false]],
    ['NOT (flag OR NULL)', [false, false, false]],
    ['flag IS NOT TRUE', [false, true, true]],
    ['flag IS UNKNOWN', [false, false, true]],
    ['flag IS NOT FALSE', [true, false, true]],
    ['flag IS DISTINCT FROM true', [false, true, true]],
    ['flag IS NOT DISTINCT FROM NULL', [false, false, true]],
    ['coalesce(flag, true)', [true, false, true]],
  ])('%s', async (where, expected) => {
    expect(await matching(where, flags)).toEqual(expected)
  })

  const ids: Row[] = [{ id: '1' }, { id: '2' }, { id: null }]
  it.each([
    ['id IN (1, NULL)', [true, false, false]],
    ['id NOT IN (1, NULL)', [false, false, false]],
    ['id NOT IN (1, 3)', [false, true, false]],
    ["id = ANY('{}')", [false, false, false]],
    ["id <> ALL('{}')", [true, true, true]],
    ["NOT (id = ANY('{1,NULL}'))", [false, false, false]],
    ["id = ALL('{1,NULL}')", [false, false, false]],
    ["NOT (id = ALL('{1,NULL}'))", [false, true, false]],
    ['id BETWEEN 2 AND 1', [false, false, false]],
    ['id BETWEEN SYMMETRIC 2 AND 1', [true, true, false]],
    ['id NOT BETWEEN 2 AND 5', [true, false, false]],
  ])('%s', async (where, expected) => {
    expect(await matching(where, ids)).toEqual(expected)
  })
})

describe('values', () => {
  it('compares big integers and numerics exactly', async () => {
    const rows = [
      { big: '9223372036854775807', num: '12345678901234567890.1' },
      { big: '9223372036854775806', num: '12345678901234567890.09' },
    ]
    expect(await matching('big = 9223372036854775807', rows)).toEqual([
      true,
      false,
    ])
    expect(await matching('num > 12345678901234567890.095', rows)).toEqual([
      true,
      false,
    ])
    expect(await matching('num = 12345678901234567890.10', rows)).toEqual([
      true,
      false,
    ])
  })

  it('treats NaN as equal to itself and above every number', async () => {
    const rows = [{ f8: 'NaN' }, { f8: 'Infinity' }, { f8: '1.5' }]
    expect(await matching("f8 = 'NaN'", rows)).toEqual([true, false, false])
    expect(await matching("f8 > 'Infinity'", rows)).toEqual([
      true,
      false,
      false,
    ])
  })

  it('matches LIKE and ILIKE like Postgres', async () => {
    const rows = [
      { name: 'a%c' },
      { name: 'abc' },
      { name: 'A_C' },
      { name: 'é😀' },
      { name: 'É' },
    ]
    expect(await matching("name LIKE 'a\\%c'", rows)).toEqual([
      true,
      false,
      false,
      false,
      false,
    ])
    expect(await matching("name LIKE 'a_c'", rows)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ])
    expect(await matching("name ILIKE 'a\\_c'", rows)).toEqual([
      false,
      false,
      true,
      false,
      false,
    ])
    expect(await matching("name LIKE '__'", rows)).toEqual([
      false,
      false,
      false,
      true,
      false,
    ])
    // Case folding is ASCII only (the snapshot runs ILIKE under COLLATE "C").
    expect(await matching("name ILIKE 'é'", rows)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ])
  })

  it('orders text by code point', async () => {
    const rows = [
      { name: 'a' },
      { name: 'B' },
      { name: '😀' },
      { name: '\uFFFD' },
    ]
    expect(await matching("name > 'B'", rows)).toEqual([
      true,
      false,
      true,
      true,
    ])
    expect(await matching("name > '\uFFFD'", rows)).toEqual([
      false,
      false,
      true,
      false,
    ])
  })

  it('ignores bpchar padding in comparisons but not in LIKE', async () => {
    const rows = [{ padded: 'ab   ' }, { padded: 'abc  ' }]
    expect(await matching("padded = 'ab'", rows)).toEqual([true, false])
    expect(await matching("padded LIKE 'ab'", rows)).toEqual([false, false])
    expect(await matching("padded::text = 'ab'", rows)).toEqual([true, false])
  })

  it('does date arithmetic at month ends', async () => {
    const rows = [{ d: '2024-01-31' }, { d: '2024-02-29' }, { d: '2023-01-31' }]
    expect(
      await matching("d + interval '1 month' = '2024-02-29'", rows),
    ).toEqual([true, false, false])
    expect(await matching("d + 1 = '2024-03-01'", rows)).toEqual([
      false,
      true,
      false,
    ])
  })

  it('reads timestamptz text with fractions and offsets', async () => {
    const rows = [{ ts: '2024-01-02 03:04:05.123+00' }, { ts: 'infinity' }]
    expect(await matching("ts = '2024-01-02 05:04:05.123+02'", rows)).toEqual([
      true,
      false,
    ])
    expect(await matching("ts > '2100-01-01'", rows)).toEqual([false, true])
  })

  it('compares arrays with their NULLs and dimensions', async () => {
    const rows = [{ ids: '{1,NULL}' }, { ids: '{}' }, { ids: '[0:1]={1,NULL}' }]
    expect(await matching("ids = '{1,NULL}'", rows)).toEqual([
      true,
      false,
      false,
    ])
    expect(await matching("ids @> '{NULL}'", rows)).toEqual([
      false,
      false,
      false,
    ])
    expect(await matching("ids @> '{1}'", rows)).toEqual([true, false, true])
    expect(await matching('array_ndims(ids) IS NULL', rows)).toEqual([
      false,
      true,
      false,
    ])
    expect(
      await matching('tags @> \'{"a b"}\'', [{ tags: '{"a b",c}' }]),
    ).toEqual([true])
  })
})

describe('rows the clause cannot evaluate', () => {
  it('leaves out a row on which Postgres would raise an error', async () => {
    const rows = [{ id: '1' }, { id: '2' }]
    expect(await matching('100 / (id - 1) > 0', rows)).toEqual([false, true])
    expect(await matching('id * 1500000000 > 0', rows)).toEqual([true, false])
  })

  it('reads a missing column as NULL and malformed text as no match', async () => {
    expect(await matching('id IS NULL', [{}])).toEqual([true])
    expect(await matching('id = 1', [{ id: 'one' }])).toEqual([false])
  })
})

describe('snapshot SQL', () => {
  it('binds params as typed placeholders, never splicing them', async () => {
    const uuid = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'
    const compiled = await compileWhere(
      'team_id = $1 AND name = $2',
      [uuid, "x'); drop"],
      columns,
    )
    expect(compiled.sql).toBe(
      '(("team_id" = $1::uuid) AND ("name" = $2::text))',
    )
    expect(compiled.params).toEqual([uuid, "x'); drop"])
    expect(compiled.columns).toEqual(new Set(['team_id', 'name']))
  })

  it('types an unconstrained param as text', async () => {
    const compiled = await compileWhere('$1 IS NULL OR id > 0', ['x'], columns)
    expect(compiled.sql).toBe('(($1::text IS NULL) OR ("id" > 0))')
  })

  it('lets IS NULL leave a param to be typed by the rest of the clause', async () => {
    const compiled = await compileWhere('$1 IS NULL OR id = $1', ['7'], columns)
    expect(compiled.sql).toBe('(($1::int4 IS NULL) OR ("id" = $1::int4))')
    expect(compiled.matches({ id: '7' })).toBe(true)
  })

  it('quotes identifiers and literals', async () => {
    const compiled = await compileWhere(
      `"Weird""Name" = 'it''s \\ here'`,
      [],
      columns,
    )
    expect(compiled.sql).toBe(`("Weird""Name" = E'it''s \\\\ here'::text)`)
    expect(compiled.matches({ 'Weird"Name': "it's \\ here" })).toBe(true)
  })

  it('orders and folds case under COLLATE "C", as the evaluator does', async () => {
    const compiled = await compileWhere(
      "name < 'b' AND lower(name) = 'a'",
      [],
      columns,
    )
    expect(compiled.sql).toBe(
      `(("name" COLLATE "C" < 'b'::text) AND (lower("name" COLLATE "C") = 'a'::text))`,
    )
  })

  it('keeps the source', async () => {
    expect((await compileWhere('id = 1', [], columns)).source).toBe('id = 1')
  })
})
