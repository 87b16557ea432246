// The where clause of a move-in query, as Electric builds it: the rows that hold a disjunct the
// move touches under the subqueries' results after it, and held no disjunct before, each
// result passed as an array param (`col = ANY($1::int8[])`), so Postgres reads the results the
// shape's clients were told of, not the subquery as the database has it by then.
import { toSql } from './compile-sql.ts'
import { isEnum, type PgType } from './pg-types.ts'
import type { ValueSet } from './subquery-view.ts'
import type { CompiledSubqueries, Position } from './types.ts'

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

type Params = { values: unknown[]; add(value: unknown): string }

function paramList(): Params {
  const values: unknown[] = []
  return {
    values,
    add(value) {
      values.push(value)
      return `$${values.length}`
    },
  }
}

// Enums compare as their labels: their type cannot be named here (compile-sql.ts).
const arrayOf = (column: string, type: PgType, param: string) =>
  isEnum(type)
    ? { column: `${quote(column)}::text`, param: `${param}::text[]` }
    : { column: quote(column), param: `${param}::${type}[]` }

function sublinkSql(
  position: Position,
  view: ValueSet,
  types: PgType[],
  params: Params,
): string {
  const { columns } = position.sublink as { columns: string[] }
  const tuples = view.tuples()
  if (columns.length === 1) {
    const a = arrayOf(
      columns[0] as string,
      types[0] as PgType,
      params.add(tuples.map((t) => t[0])),
    )
    return `(${a.column} = ANY(${a.param}))`
  }
  const arrays = columns.map((c, i) =>
    arrayOf(c, types[i] as PgType, params.add(tuples.map((t) => t[i]))),
  )
  return `((${arrays.map((a) => a.column).join(', ')}) IN (SELECT * FROM unnest(${arrays.map((a) => a.param).join(', ')})))`
}

/** The disjuncts `ids` of the clause, each result read from `views` (by dependency). */
function disjunctsSql(
  plan: CompiledSubqueries,
  ids: number[],
  views: ValueSet[],
  clauseParams: readonly string[],
  params: Params,
): string {
  const numbered = new Map<number, string>()
  const param = (index: number) => {
    let name = numbered.get(index)
    if (name === undefined)
      numbered.set(index, (name = params.add(clauseParams[index - 1])))
    return name
  }
  const disjuncts = ids.map((d) => {
    const literals = (plan.dnf.disjuncts[d] ?? []).map((id) => {
      const p = plan.dnf.positions[id] as Position
      const dep = p.sublink ? plan.dependencies[p.sublink.dep] : undefined
      const sql = dep
        ? sublinkSql(p, views[p.sublink!.dep] as ValueSet, dep.types, params)
        : toSql(p.expr, param)
      return p.negated ? `(NOT ${sql})` : sql
    })
    return `(${literals.join(' AND ')})`
  })
  return disjuncts.length > 0 ? `(${disjuncts.join(' OR ')})` : 'false'
}

/**
 * The rows a move brings in: TRUE for a disjunct holding a moved dependency after the move,
 * and not TRUE for any before (NULL counts as not, as it did for the shape).
 */
export function moveInWhere(
  plan: CompiledSubqueries,
  moved: ReadonlySet<number>,
  before: ValueSet[],
  after: ValueSet[],
  clauseParams: readonly string[],
): { sql: string; params: unknown[] } {
  const params = paramList()
  const all = plan.dnf.disjuncts.map((_, i) => i)
  const touched = all.filter((d) =>
    (plan.dnf.disjuncts[d] ?? []).some((id) => {
      const dep = plan.dnf.positions[id]?.sublink?.dep
      return dep !== undefined && moved.has(dep)
    }),
  )
  const now = disjunctsSql(plan, touched, after, clauseParams, params)
  const then = disjunctsSql(plan, all, before, clauseParams, params)
  return { sql: `${now} AND (${then}) IS NOT TRUE`, params: params.values }
}
