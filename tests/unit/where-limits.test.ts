// Clauses that would hold the event loop: refused with a 400-bound WhereError when their cost
// shows at compile time, failing (not matching) on the row that triggers it otherwise.
import { describe, expect, it } from 'vitest'
import { compileWhere, WhereError } from '../../src/engine/where/index.ts'
import {
  MAX_LIST_ITEMS,
  MAX_PARAM_LENGTH,
  MAX_PARAMS,
  MAX_WHERE_LENGTH,
  MAX_WHERE_NODES,
} from '../../src/engine/where/limits.ts'
import type { ColumnInfo } from '../../src/engine/where/types.ts'

const column = (name: string, type: string, extra: Partial<ColumnInfo> = {}) =>
  [name, { name, type, typeOid: 0, dims: 0, notNull: false, ...extra }] as const

const columns = new Map<string, ColumnInfo>([
  column('id', 'int4'),
  column('num', 'numeric'),
  column('name', 'text'),
  column('ids', 'int4', { dims: 1 }),
  column('jb', 'jsonb'),
])

async function refusal(where: string, params: string[] = []) {
  const error = await compileWhere(where, params, columns).then(
    () => undefined,
    (e: unknown) => e,
  )
  if (!(error instanceof WhereError))
    throw new Error(`expected a WhereError, got ${String(error)}`)
  return error.message
}

const TOO_DEEP = 'where clause is nested too deeply (more than 100 levels)'
const TOO_COSTLY =
  'where clause is too costly to evaluate (its work budget is exceeded)'
const OVERFLOW = 'value overflows numeric format'

describe('numeric power', () => {
  it('computes a base near 1 to a huge power at the precision it shows', async () => {
    const compiled = await compileWhere(
      'num = 1.0000000001 ^ 10000000',
      [],
      columns,
    )
    // exp(1e7 × ln(1.0000000001)) to the 16 decimals power_var_int keeps.
    expect(compiled.matches({ num: '1.0010005001666583' })).toBe(true)
  })

  it('refuses results past numeric weight as Postgres does', async () => {
    expect(await refusal('num < 2::numeric ^ 1000000')).toBe(OVERFLOW)
    expect(await refusal('num < 1.0000001 ^ 2000000000000')).toBe(OVERFLOW)
  })

  it('computes the largest powers numeric holds', async () => {
    const compiled = await compileWhere(
      'num < 2::numeric ^ 400000',
      [],
      columns,
    )
    expect(compiled.matches({ num: '1' })).toBe(true)
  })

  it('underflows to zero like Postgres', async () => {
    const compiled = await compileWhere('num = 0.5 ^ 100000', [], columns)
    expect(compiled.matches({ num: '0' })).toBe(true)
  })

  it('fails the row, not the server, when a column makes it overflow', async () => {
    const compiled = await compileWhere('num ^ 1000000 > 0', [], columns)
    expect(compiled.matches({ num: '2' })).toBe(false)
    expect(compiled.matches({ num: '1' })).toBe(true)
  })
})

describe('numeric overflow', () => {
  const big = '1e100000'
  it('refuses products and sums past numeric weight', async () => {
    expect(await refusal(`num < ${big}::numeric * ${big}`)).toBe(OVERFLOW)
    const compiled = await compileWhere(`num * ${big} > 0`, [], columns)
    expect(compiled.matches({ num: `1${'0'.repeat(100_000)}` })).toBe(false)
    expect(compiled.matches({ num: '1' })).toBe(true)
  })

  it('still computes what fits', async () => {
    const compiled = await compileWhere('num * 1e131070 > 0', [], columns)
    expect(compiled.matches({ num: '1' })).toBe(true)
    expect(compiled.matches({ num: '100' })).toBe(false)
    // Leading digits of a value just past 2^53 (select_div_scale picks scale 0 here).
    const divided = await compileWhere(
      'num / 3 = 33333333333333333',
      [],
      columns,
    )
    expect(divided.matches({ num: '100000000000000000' })).toBe(true)
  })
})

describe('nesting and size', () => {
  it.each([
    ['2,500 chained NOTs', `${'not '.repeat(2500)}true`],
    ['15,000 chained NOTs', `${'not '.repeat(15_000)}true`],
    ['a 3,500-term sum', `id = ${Array(3500).fill('1').join('+')}`],
    [
      'deep function calls',
      `${'lower('.repeat(150)}name${')'.repeat(150)} = 'a'`,
    ],
  ])('refuses %s', async (_label, where) => {
    expect(await refusal(where)).toMatch(
      /^(where clause is nested too deeply \(more than 100 levels\)|At location \d+: memory exhausted)/,
    )
  })

  it('refuses a 2,500-deep NOT chain as too deep', async () => {
    expect(await refusal(`${'not '.repeat(2500)}true`)).toBe(TOO_DEEP)
  })

  it('accepts nesting within the limit', async () => {
    const compiled = await compileWhere(
      `id = ${Array(40).fill('1').join('+')}`,
      [],
      columns,
    )
    expect(compiled.matches({ id: '40' })).toBe(true)
  })

  it('refuses too many expressions, too long a clause, too many or too long params', async () => {
    // Lists within their own limit, so it is the count of expressions that refuses it.
    const list = `id in (${Array.from({ length: MAX_LIST_ITEMS }, (_, i) => i)})`
    const lists = Math.ceil(MAX_WHERE_NODES / MAX_LIST_ITEMS) + 1
    expect(await refusal(Array(lists).fill(list).join(' or '))).toBe(
      `where clause is too large (more than ${MAX_WHERE_NODES} expressions)`,
    )
    expect(await refusal(`name = '${'x'.repeat(MAX_WHERE_LENGTH)}'`)).toBe(
      `where clause is too long (more than ${MAX_WHERE_LENGTH} characters)`,
    )
    const many = Array.from({ length: MAX_PARAMS + 1 }, () => '1')
    expect(await refusal('id = $1', many)).toBe(
      `too many parameters (more than ${MAX_PARAMS})`,
    )
    expect(await refusal('name = $1', ['x'.repeat(MAX_PARAM_LENGTH + 1)])).toBe(
      `parameter value for $1 is too long (more than ${MAX_PARAM_LENGTH} characters)`,
    )
  })

  it('refuses a list past MAX_LIST_ITEMS (IN, ARRAY[...], AND/OR terms), naming the limit', async () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => i).join(',')
    const tooLong = `where clause has a list of more than ${MAX_LIST_ITEMS} items`
    const over = MAX_LIST_ITEMS + 1
    expect(await refusal(`id in (${ids(over)})`)).toMatch(tooLong)
    expect(await refusal(`id = any(array[${ids(over)}])`)).toMatch(tooLong)
    const terms = Array.from({ length: over }, (_, i) => `id = ${i}`)
    expect(await refusal(terms.join(' or '))).toMatch(tooLong)
    // Far past it, refused as a list too (not only once every item is walked).
    expect(await refusal(`id in (${ids(9_990)})`)).toMatch(tooLong)
    const most = await compileWhere(
      `id in (${ids(MAX_LIST_ITEMS)})`,
      [],
      columns,
    )
    expect(most.matches({ id: String(MAX_LIST_ITEMS - 1) })).toBe(true)
    // The way to many values: one array param, parsed as a value, not as clause.
    const many = await compileWhere(
      'id = any($1)',
      [`{${ids(10_000)}}`],
      columns,
    )
    expect(many.matches({ id: '9999' })).toBe(true)
  })

  it('refuses arrays past MAXDIM and jsonb nested past its depth', async () => {
    expect(await refusal(`ids = '${'{'.repeat(7)}1${'}'.repeat(7)}'`)).toMatch(
      /^invalid input syntax for type int4\[\]/,
    )
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`
    expect(await refusal(`jb = '${deep}'`)).toMatch(
      /^invalid input syntax for type jsonb/,
    )
  })
})

describe('the evaluation budget', () => {
  // O(text × pattern) backtracking: `%aaa…b` against a long run of a's.
  const pattern = `%${'a'.repeat(2000)}b`

  it('fails a row whose LIKE backtracks past the budget, and only that row', async () => {
    const compiled = await compileWhere('name LIKE $1', [pattern], columns)
    // It matches, but only after ~200M steps: past the budget the row fails instead.
    const heavy = { name: `${'a'.repeat(100_000)}b` }
    const light = { name: `${'a'.repeat(2000)}b` }
    expect(compiled.matches(heavy)).toBe(false)
    // Each evaluation starts with its own budget: the next row, and other shapes, are unharmed.
    expect(compiled.matches(light)).toBe(true)
    const other = await compileWhere("name LIKE '%b'", [], columns)
    expect(other.matches(heavy)).toBe(true)
    expect(other.matches(light)).toBe(true)
  })

  it('refuses constants that cost more than the budget to compute', async () => {
    const big = '(1e60000::numeric)::text'
    expect(await refusal(`name = ${big} || ${big}`)).toBe(TOO_COSTLY)
  })

  it('refuses a constant LIKE that backtracks past the budget', async () => {
    const text = 'a'.repeat(30_000)
    expect(await refusal(`'${text}' LIKE '${pattern}'`)).toBe(TOO_COSTLY)
  })

  it('bounds what concatenation builds', async () => {
    const doubled = (depth: number): string =>
      depth === 0 ? 'name' : `(${doubled(depth - 1)} || ${doubled(depth - 1)})`
    // 256 copies of the column: fine for a short value, over budget for a long one.
    const compiled = await compileWhere(`${doubled(8)} <> ''`, [], columns)
    expect(compiled.matches({ name: 'ab' })).toBe(true)
    expect(compiled.matches({ name: 'x'.repeat(100_000) })).toBe(false)
  })

  it('bounds array containment over large arrays', async () => {
    const compiled = await compileWhere(
      'ids @> $1',
      [`{${Array.from({ length: 10_000 }, (_, i) => i).join(',')}}`],
      columns,
    )
    const many = `{${Array.from({ length: 10_000 }, (_, i) => i).join(',')}}`
    expect(compiled.matches({ ids: many })).toBe(false)
    const few = await compileWhere("ids @> '{1,2}'", [], columns)
    expect(few.matches({ ids: many })).toBe(true)
  })
})

describe('compiling in turns', () => {
  /** Counts event-loop turns: one immediate per turn, requeued (so it runs in the next). */
  function turnCounter() {
    let turns = 0
    let running = true
    const tick = () => {
      turns++
      if (running) setImmediate(tick)
    }
    setImmediate(tick)
    return {
      now: () => turns,
      stop: () => (running = false),
    }
  }

  it('parses and analyses in separate turns, and several clauses one at a time', async () => {
    const where = `id in (${Array.from({ length: MAX_LIST_ITEMS }, (_, i) => i)})`
    const turns = turnCounter()
    const spans = await Promise.all(
      [1, 2, 3].map(async () => {
        const start = turns.now()
        await compileWhere(where, [], columns)
        return { start, end: turns.now() }
      }),
    )
    turns.stop()
    // The loop turns between the parse and the analysis of one clause...
    for (const span of spans)
      expect(span.end - span.start).toBeGreaterThanOrEqual(2)
    // ...and three clauses given at once never take one turn together.
    const ends = spans.map((s) => s.end)
    expect(new Set(ends).size).toBe(3)
  })
})
