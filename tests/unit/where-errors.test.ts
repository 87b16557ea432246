// Where clauses we refuse, and how: syntax errors located like Electric's (counting from the
// start of `SELECT 1 WHERE `), plain messages naming what is wrong for everything else.
import { describe, expect, it } from 'vitest'
import { compileWhere, WhereError } from '../../src/engine/where/index.ts'
import type { ColumnInfo } from '../../src/engine/where/types.ts'

const column = (name: string, type: string, extra: Partial<ColumnInfo> = {}) =>
  [name, { name, type, typeOid: 0, dims: 0, notNull: false, ...extra }] as const

const columns = new Map<string, ColumnInfo>([
  column('id', 'int4'),
  column('name', 'text'),
  column('ts', 'timestamptz'),
  column('d', 'date'),
  column('uid', 'uuid'),
  column('mood', 'mood', { enum: true }),
  column('tags', 'text', { dims: 1 }),
  column('geo', 'geometry'),
])

async function refusal(
  where: string,
  params: string[] = [],
): Promise<WhereError> {
  const error = await compileWhere(where, params, columns).then(
    () => undefined,
    (e: unknown) => e,
  )
  if (!(error instanceof WhereError))
    throw new Error(`expected a WhereError for ${where}`)
  return error
}

describe('syntax errors', () => {
  it.each([
    ['x x', 'At location 17: syntax error at or near "x"'],
    ['id = ', 'At location 20: syntax error at end of input'],
    ['', 'At location 15: syntax error at end of input'],
    [
      "name = 'abc",
      'At location 22: unterminated quoted string at or near "\'abc"',
    ],
    ['id = 1)', 'At location 21: syntax error at or near ")"'],
    [
      'id = 1 /* c',
      'At location 22: unterminated /* comment at or near "/* c"',
    ],
  ])('%s', async (where, message) => {
    const error = await refusal(where)
    expect(error.message).toBe(message)
  })

  it('reports the location within the clause too', async () => {
    expect((await refusal('id = 1)')).location).toBe(6)
  })

  it.each([
    ['id = 1; drop table t', 'unescaped ";" causing statement split'],
    ['true order by id', 'malformed query ending with SQL clauses'],
    ['true limit 1', 'malformed query ending with SQL clauses'],
    ['true group by id', 'malformed query ending with SQL clauses'],
    ['true union select 1', 'malformed query ending with SQL clauses'],
    ['true for update', 'malformed query ending with SQL clauses'],
  ])('refuses SQL around the clause: %s', async (where, message) => {
    expect((await refusal(where)).message).toBe(message)
  })
})

describe('refused constructs', () => {
  it.each([
    ['id = (select 1)', 'subqueries are not supported'],
    ['id in (select 1)', 'subqueries are not supported'],
    ['exists (select 1)', 'subqueries are not supported'],
    ['now() > ts', 'non-deterministic functions are not supported: now()'],
    [
      'random() < 0.5',
      'non-deterministic functions are not supported: random()',
    ],
    [
      'uid = gen_random_uuid()',
      'non-deterministic functions are not supported: gen_random_uuid()',
    ],
    [
      'd = current_date',
      'non-deterministic functions (CURRENT_DATE, CURRENT_USER...) are not supported',
    ],
    ['count(*) > 1', 'aggregate functions are not supported: count()'],
    ['sum(id) > 1', 'aggregate functions are not supported: sum()'],
    ['max(id) over () > 1', 'window functions are not supported: max()'],
    ['foo(id)', 'unknown or unsupported function foo/1'],
    ['length(name) > 1', 'unknown or unsupported function length/1'],
    ['lower(id) = 1', 'function lower(int4) does not exist'],
    ['id + 1', 'argument of WHERE must be type boolean, not type int4'],
    ['name', 'argument of WHERE must be type boolean, not type text'],
    ['id and true', 'argument of AND must be type boolean, not type int4'],
    ['id is true', 'argument of IS TRUE must be type boolean, not type int4'],
    ['nope = 1', 'column "nope" does not exist'],
    ['"Id" = 1', 'column "Id" does not exist'],
    ['t.id = 1', 'qualified column names are not supported: t.id'],
    ['name = 1', 'operator does not exist: text = int4'],
    ['id = uid', 'operator does not exist: int4 = uuid'],
    ["name ~ 'a'", 'operator does not exist: text ~ unknown'],
    ["geo = 'x'", 'operator does not exist: geometry = unknown'],
    ["id = 'abc'", 'invalid input syntax for type int4: "abc"'],
    ["d = '2024-02-30'", 'invalid input syntax for type date: "2024-02-30"'],
    ['case when true then true end', 'CASE is not supported'],
    ['(id, id) = (1, 1)', 'row expressions are not supported'],
    [
      "name[1] = 'a'",
      'cannot subscript type text because it does not support subscripting',
    ],
    ["tags[true] = 'a'", 'array subscript must have type integer, not bool'],
    [
      "tags[1][1][1][1][1][1][1] = 'a'",
      'number of array dimensions (7) exceeds the maximum allowed (6)',
    ],
    ['name collate "C" = \'a\'', 'COLLATE is not supported'],
    ["id::varchar(3) = '1'", 'type modifiers are not supported'],
    ['id::money > 1', 'type "money" is not supported'],
    ["name similar to 'a'", 'SIMILAR TO is not supported'],
    ['nullif(id, 1) = 1', 'NULLIF is not supported'],
    ["name like 'a' escape '!'", 'LIKE ... ESCAPE is not supported'],
    [
      "mood < 'happy'",
      'enum values can only be compared with = and <> (as their labels)',
    ],
    [
      "greatest(mood, mood) = 'ok'",
      'enum values can only be compared with = and <> (as their labels)',
    ],
    ['ARRAY[]::int[] = tags', 'cannot determine type of empty array'],
    ["b'101' = id", 'bit strings are not supported'],
    ['1/0 = id', 'division by zero'],
    ["name like 'a\\'", 'LIKE pattern must not end with escape character'],
    [
      'id = ANY(id)',
      'op ANY/ALL (array) requires array on right side, not int4',
    ],
    ['coalesce(id, name) = 1', 'COALESCE types int4, text cannot be matched'],
  ])('%s', async (where, message) => {
    expect((await refusal(where)).message).toBe(message)
  })

  it('locates semantic errors within the clause', async () => {
    expect((await refusal('now() > ts')).location).toBe(0)
    expect((await refusal("id = 'abc'")).location).toBe(5)
    expect((await refusal('id = 1 and nope')).location).toBe(11)
  })

  it('allows only IS NULL and ::text on columns of types it does not know', async () => {
    const compiled = await compileWhere(
      "geo is null or geo::text = 'x'",
      [],
      columns,
    )
    expect(compiled.sql).toBe(
      '(("geo" IS NULL) OR (("geo")::text = \'x\'::text))',
    )
    expect((await refusal('geo::int4 = 1')).message).toBe(
      'cannot cast type geometry to int4',
    )
  })
})

describe('parameters', () => {
  it.each([
    ['id = $1', [], 'parameter $1 was not provided'],
    ['id = $2', ['1'], 'parameter $2 was not provided'],
    ['id = 1', ['1'], 'parameter value for $1 was not used'],
    ['id = $2', ['1', '2'], 'parameter value for $1 was not used'],
    ['id = $1', ['abc'], 'invalid input syntax for type int4 in $1: "abc"'],
    [
      'uid = $1',
      ['not-a-uuid'],
      'invalid input syntax for type uuid in $1: "not-a-uuid"',
    ],
    ['$1 = id and $1 = name', ['1'], 'operator does not exist: int4 = text'],
    [
      "$1 || $1::int4 = 'x'",
      ['1'],
      'inconsistent types deduced for parameter $1: int4 and text',
    ],
  ])('%s %j', async (where, params, message) => {
    expect((await refusal(where, params)).message).toBe(message)
  })
})
