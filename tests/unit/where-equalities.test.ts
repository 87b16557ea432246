// The `column = constant` conditions a clause guarantees, in the column's own text output:
// only top-level ANDs, only types whose canonical text we know exactly.
import { describe, expect, it } from 'vitest'
import { compileWhere } from '../../src/engine/where/index.ts'
import type { ColumnInfo } from '../../src/engine/where/types.ts'

const column = (name: string, type: string, extra: Partial<ColumnInfo> = {}) =>
  [name, { name, type, typeOid: 0, dims: 0, notNull: false, ...extra }] as const

const columns = new Map<string, ColumnInfo>([
  column('id', 'int4'),
  column('big', 'int8'),
  column('small', 'int2'),
  column('name', 'text'),
  column('code', 'varchar'),
  column('padded', 'bpchar'),
  column('uid', 'uuid'),
  column('flag', 'bool'),
  column('mood', 'mood', { enum: true }),
  column('d', 'date'),
  column('ts', 'timestamptz'),
  column('num', 'numeric'),
  column('f8', 'float8'),
  column('doc', 'jsonb'),
])

async function equalities(where: string, params: string[] = []) {
  return (await compileWhere(where, params, columns)).equalities
}

describe('equalities', () => {
  it.each([
    ['id = 5', [['id', '5']]],
    ['5 = id', [['id', '5']]],
    ["id = '+007'", [['id', '7']]],
    ['big = 1', [['big', '1']]],
    ['big = 9223372036854775807', [['big', '9223372036854775807']]],
    ["small = '-3'", [['small', '-3']]],
    ["name = 'Abc '", [['name', 'Abc ']]],
    ["code = 'x'", [['code', 'x']]],
    [
      "uid = 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'",
      [['uid', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11']],
    ],
    [
      "uid = '{a0eebc999c0b4ef8bb6d6bb9bd380a11}'",
      [['uid', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11']],
    ],
    ["flag = 'yes'", [['flag', 't']]],
    ['flag = false', [['flag', 'f']]],
    ["mood = 'happy'", [['mood', 'happy']]],
    ["d = '2024-02-29'", [['d', '2024-02-29']]],
    ["d = '0001-01-01 BC'", [['d', '0001-01-01 BC']]],
    [
      "id = 1 and name = 'a' and (flag = true and d = '2024-01-01')",
      [
        ['id', '1'],
        ['name', 'a'],
        ['flag', 't'],
        ['d', '2024-01-01'],
      ],
    ],
  ])('%s', async (where, expected) => {
    const found = await equalities(where)
    expect(found).toEqual(
      expected.map(([column, value]) => ({ column, value })),
    )
  })

  it('takes params in their canonical form', async () => {
    expect(
      await equalities('id = $1 and uid = $2', [
        '042',
        'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11',
      ]),
    ).toEqual([
      { column: 'id', value: '42' },
      { column: 'uid', value: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' },
    ])
  })

  it.each([
    'id = 1 or id = 2',
    'not (id <> 1)',
    'id = 1.0',
    'id + 0 = 1',
    'id = null',
    'id in (1)',
    "name like 'a'",
    '(id = 1) is true',
    "padded = 'a'", // bpchar output carries the padding of the column's length
    "ts = '2024-01-01'", // several texts per instant depend on session settings
    'num = 1', // 1 and 1.0 are equal numerics with different text
    'f8 = 1',
    'doc = \'{"a": 1}\'',
    'id = big',
  ])('lists none for %s', async (where) => {
    expect(await equalities(where)).toEqual([])
  })
})

describe('a clause that is one equality', () => {
  // Matched as the text comparison it is: rows carry each column's canonical text output.
  it.each([
    ['id = $1', ['7'], { id: '7' }, true],
    ['id = $1', ['7'], { id: '8' }, false],
    ['id = $1', ['7'], { id: null }, false],
    ['id = $1', ['7'], {}, false],
    ["mood = 'sad'", [], { mood: 'sad' }, true],
    ["mood = 'sad'", [], { mood: 'ok' }, false],
    ["name = 'constructor'", [], {}, false],
    ['flag = true', [], { flag: 't' }, true],
    ['flag = true', [], { flag: 'f' }, false],
  ] as const)('%s with %j: %j is %s', async (where, params, row, expected) => {
    const compiled = await compileWhere(where, [...params], columns)
    expect(compiled.matches({ ...row })).toBe(expected)
  })

  it('agrees with the clause written any other way', async () => {
    const one = await compileWhere('big = $1', ['42'], columns)
    const other = await compileWhere('big = $1 AND true', ['42'], columns)
    for (const big of ['42', '41', '-42', null])
      expect(one.matches({ big })).toBe(other.matches({ big }))
  })
})
