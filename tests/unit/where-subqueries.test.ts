// `x IN (SELECT …)` in where clauses: what is accepted and refused (in Electric's words), the
// SQL the snapshot runs, the normal form that numbers positions as Electric does, and the
// three-valued evaluation against a subquery's current result.
import { describe, expect, it } from 'vitest'
import { compileWhere, WhereError } from '../../src/engine/where/index.ts'
import type {
  ColumnInfo,
  CompiledWhere,
  SubqueryTable,
} from '../../src/engine/where/types.ts'

const column = (name: string, type: string, extra: Partial<ColumnInfo> = {}) =>
  [name, { name, type, typeOid: 0, dims: 0, notNull: false, ...extra }] as const

const table = (pk: string[], ...cols: ReturnType<typeof column>[]) => ({
  columns: new Map<string, ColumnInfo>(cols),
  primaryKey: pk,
})

const tasks = table(
  ['id'],
  column('id', 'int8'),
  column('project_id', 'int8'),
  column('owner', 'uuid'),
  column('title', 'text'),
  column('done', 'bool'),
  column('score', 'numeric'),
)
const tables: Record<string, SubqueryTable> = {
  'public.projects': table(
    ['id'],
    column('id', 'int8'),
    column('team_id', 'int8'),
    column('archived', 'bool'),
    column('price', 'numeric'),
  ),
  'public.members': table(
    ['team_id', 'user_id'],
    column('team_id', 'int8'),
    column('user_id', 'uuid'),
  ),
  'app.pairs': table(['a'], column('a', 'int8'), column('b', 'uuid')),
}

const load = (t: { schema: string; name: string }) => {
  const found = tables[`${t.schema}.${t.name}`]
  if (!found) throw new Error(`no table ${t.schema}.${t.name}`)
  return Promise.resolve(found)
}

const compiled = (where: string, params: string[] = []) =>
  compileWhere(where, params, tasks.columns, 0, { load })

async function refusal(where: string, params: string[] = []) {
  const error = await compiled(where, params).then(
    () => undefined,
    (e: unknown) => e,
  )
  if (!(error instanceof WhereError))
    throw new Error(`expected a WhereError for ${where}`)
  return error.message
}

const subqueriesOf = (w: CompiledWhere) => {
  if (!w.subqueries) throw new Error('no subqueries')
  return w.subqueries
}

describe('subqueries accepted', () => {
  it('compiles IN (SELECT …) to SQL with the params numbered as the clause', async () => {
    const w = await compiled(
      'project_id IN (SELECT id FROM projects WHERE team_id = $1 AND archived = false) AND done = $2',
      ['7', 'true'],
    )
    expect(w.sql).toBe(
      '(("project_id" IN (SELECT "id" FROM "public"."projects" WHERE (("team_id" = $1::int8) AND ("archived" = false)))) AND ("done" = $2::bool))',
    )
    const [dep] = subqueriesOf(w).dependencies
    expect(dep?.table).toEqual({ schema: 'public', name: 'projects' })
    expect(dep?.columns).toEqual(['id'])
    expect(dep?.primaryKey).toEqual(['id'])
    expect(dep?.where?.sql).toBe(
      '(("team_id" = $1::int8) AND ("archived" = false))',
    )
    expect(dep?.where?.params).toEqual(['7'])
    expect(dep?.where?.equalities).toEqual([
      { column: 'team_id', value: '7' },
      { column: 'archived', value: 'f' },
    ])
  })

  it('renumbers a subquery’s params when it runs alone', async () => {
    const w = await compiled(
      'title = $1 AND project_id IN (SELECT id FROM projects WHERE team_id = $2)',
      ['a', '9'],
    )
    const [dep] = subqueriesOf(w).dependencies
    expect(dep?.where?.sql).toBe('("team_id" = $1::int8)')
    expect(dep?.where?.params).toEqual(['9'])
  })

  it('accepts row values, schemas, nesting, and one dependency for a repeated subquery', async () => {
    const w = await compiled(
      `(project_id, owner) IN (SELECT a, b FROM app.pairs)
       OR (project_id IN (SELECT id FROM projects WHERE team_id IN (SELECT team_id FROM members WHERE user_id = $1))
           AND NOT project_id IN (SELECT id FROM projects))
       OR (project_id, owner) IN (SELECT a, b FROM app.pairs)`,
      ['00000000-0000-0000-0000-000000000001'],
    )
    const { dependencies, dnf } = subqueriesOf(w)
    expect(dependencies.map((d) => d.table.name)).toEqual([
      'pairs',
      'projects',
      'projects',
    ])
    expect(dependencies.map((d) => d.negated)).toEqual([false, false, true])
    const nested = dependencies[1]?.where?.subqueries
    expect(nested?.dependencies[0]?.table.name).toBe('members')
    expect(nested?.dependencies[0]?.where?.params).toEqual([
      '00000000-0000-0000-0000-000000000001',
    ])
    expect(dnf.disjuncts).toEqual([[0], [1, 2], [3]])
    expect(dnf.positions.map((p) => p.sublink?.dep)).toEqual([0, 1, 2, 0])
  })

  it('numbers positions as Electric does: NOT pushed down, AND distributed', async () => {
    const w = await compiled(
      "(project_id IN (SELECT id FROM projects) OR title = 'x') AND done = true",
    )
    const { dnf } = subqueriesOf(w)
    expect(dnf.disjuncts).toEqual([
      [0, 1],
      [2, 3],
    ])
    expect(dnf.positions.map((p) => p.sublink !== null)).toEqual([
      true,
      false,
      false,
      false,
    ])
    const negated = await compiled(
      "NOT (project_id IN (SELECT id FROM projects) AND title = 'x')",
    )
    const n = subqueriesOf(negated).dnf
    expect(n.disjuncts).toEqual([[0], [1]])
    expect(n.positions.map((p) => p.negated)).toEqual([true, true])
    expect(subqueriesOf(negated).dependencies[0]?.negated).toBe(true)
  })
})

describe('subqueries refused', () => {
  it.each([
    [
      'EXISTS (SELECT id FROM projects)',
      'only `value IN (SELECT ...)` sublinks are supported right now',
    ],
    [
      'project_id = ANY (SELECT id FROM projects)',
      'only `value IN (SELECT ...)` sublinks are supported right now',
    ],
    [
      'project_id + 1 IN (SELECT id FROM projects)',
      'currently, left side of `IN (SELECT ...)` can only be a column reference or a list of column references',
    ],
    [
      'project_id IN (SELECT id + 1 FROM projects)',
      'Expected a plain column reference',
    ],
    [
      'project_id IN (SELECT id FROM projects, members)',
      'Expected a single table reference',
    ],
    [
      'project_id IN (SELECT id FROM projects LIMIT 1)',
      'SELECT statement must not contain any clauses',
    ],
    [
      'project_id IN (SELECT DISTINCT id FROM projects)',
      'SELECT statement must not contain any clauses',
    ],
    [
      'owner IN (SELECT id FROM projects)',
      'left side of `IN (SELECT ...)` has type uuid but subquery returns int8[]',
    ],
    [
      'score IN (SELECT price FROM projects)',
      '`IN (SELECT ...)` on type numeric is not supported',
    ],
    [
      'project_id IN (SELECT id FROM projects) OR NOT project_id IN (SELECT id FROM projects)',
      'a subquery dependency cannot be used with both positive and negative polarity in the same filter',
    ],
    [
      '(project_id IN (SELECT id FROM projects)) IS TRUE',
      '`IN (SELECT ...)` can only be combined with AND, OR and NOT',
    ],
    [
      'project_id IN (SELECT nope FROM projects)',
      'column "nope" does not exist',
    ],
  ])('%s', async (where, message) => {
    expect(await refusal(where)).toBe(message)
  })

  it('refuses a normal form of more than 100 disjuncts', async () => {
    const ors = (n: string) =>
      `(${Array.from({ length: 11 }, (_, i) => `${n} = ${i}`).join(' OR ')})`
    expect(
      await refusal(
        `project_id IN (SELECT id FROM projects) AND ${ors('id')} AND ${ors('project_id')}`,
      ),
    ).toBe(
      'WHERE clause too complex for DNF decomposition (121 disjuncts exceeds limit of 100)',
    )
  })

  it('refuses subqueries where they are not allowed, saying why', async () => {
    const error = await compileWhere(
      'project_id IN (SELECT id FROM projects)',
      [],
      tasks.columns,
      0,
      { refused: 'Subqueries are not allowed in subsets' },
    ).catch((e: unknown) => e)
    expect((error as Error).message).toBe(
      'Subqueries are not allowed in subsets',
    )
  })
})

describe('evaluation against the subquery’s result', () => {
  const row = (project_id: string | null) => ({
    id: '1',
    project_id,
    owner: null,
    title: 't',
    done: 'true',
    score: '1',
  })

  it('is three-valued, as Postgres: NULL lhs, NULLs in the result, NOT IN', async () => {
    const w = await compiled('project_id IN (SELECT id FROM projects)')
    const not = await compiled('NOT project_id IN (SELECT id FROM projects)')
    const view = subqueriesOf(w).dependencies[0]!.view.current
    const notView = subqueriesOf(not).dependencies[0]!.view.current
    // Empty: nothing is IN, everything (NULL too) is NOT IN.
    expect(w.matches(row('1'))).toBe(false)
    expect(not.matches(row(null))).toBe(true)
    for (const v of [view, notView]) {
      v.add(['1'])
      v.add(['1'])
    }
    expect(w.matches(row('1'))).toBe(true)
    expect(w.matches(row('2'))).toBe(false)
    expect(not.matches(row('2'))).toBe(true)
    expect(not.matches(row(null))).toBe(false)
    // One of two rows selecting 1 leaves: 1 stays in the result.
    expect(view.remove(['1'])).toBe(false)
    expect(w.matches(row('1'))).toBe(true)
    expect(view.remove(['1'])).toBe(true)
    expect(w.matches(row('1'))).toBe(false)
    // A NULL in the result: NOT IN is never TRUE.
    notView.add([null])
    expect(not.matches(row('2'))).toBe(false)
    expect(not.matches(row('1'))).toBe(false)
  })

  it('tells each position apart, negation applied', async () => {
    const w = await compiled(
      "project_id IN (SELECT id FROM projects) OR (title = 'x' AND NOT project_id IN (SELECT id FROM projects WHERE archived))",
    )
    const { dnf, dependencies } = subqueriesOf(w)
    dependencies[0]!.view.current.add(['5'])
    dependencies[1]!.view.current.add(['6'])
    const holds = (r: Record<string, string | null>) =>
      dnf.positions.map((p) => p.holds(r))
    expect(holds({ ...row('5'), title: 'x' })).toEqual([true, true, true])
    expect(holds({ ...row('6'), title: 'y' })).toEqual([false, false, false])
  })
})
