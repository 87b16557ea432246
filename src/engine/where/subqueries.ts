// A clause's subqueries, compiled for the shape that follows them: each dependency's where
// clause on its own (to read its rows, and to evaluate its table's changes), level by level,
// and the clause's normal form (dnf.ts) for tags and moves.
import { toSql } from './compile-sql.ts'
import { decompose } from './dnf.ts'
import { extractEqualities } from './equalities.ts'
import { compile, matcher } from './evaluate.ts'
import type { Expr } from './tree.ts'
import type {
  CompiledSubqueries,
  DependencyDraft,
  DependencyWhere,
} from './types.ts'

export function compileSubqueries(
  expr: Expr,
  drafts: DependencyDraft[],
  params: readonly string[],
): CompiledSubqueries {
  const dnf = decompose(expr, drafts.length)
  return {
    dnf,
    index: indexOf(expr),
    dependencies: drafts.map((draft, i) => ({
      table: draft.subquery.table,
      columns: draft.subquery.columns,
      types: draft.types,
      primaryKey: draft.primaryKey,
      view: draft.view,
      negated: dnf.negatedDeps[i] ?? false,
      where: draft.subquery.where
        ? dependencyWhere(draft.subquery.where, draft, params)
        : null,
    })),
  }
}

function dependencyWhere(
  where: Expr,
  draft: DependencyDraft,
  params: readonly string[],
): DependencyWhere {
  // Only the params this clause uses, renumbered in order of appearance: Postgres cannot type
  // a param a statement never reads.
  const used = new Map<number, number>()
  const sql = toSql(where, (index) => {
    let n = used.get(index)
    if (n === undefined) used.set(index, (n = used.size + 1))
    return `$${n}`
  })
  const equalities = extractEqualities(where)
  return {
    sql,
    params: [...used.keys()].map((index) => params[index - 1] as string),
    columns: draft.whereColumns,
    equalities,
    matches: matcher(compile(where)),
    ...(draft.dependencies.length > 0 && {
      subqueries: compileSubqueries(where, draft.dependencies, params),
    }),
  }
}

// The first top-level conjunct testing one column against a subquery's result.
function indexOf(expr: Expr): CompiledSubqueries['index'] {
  const conjuncts = expr.kind === 'and' ? expr.args : [expr]
  for (const c of conjuncts)
    if (c.kind === 'sublink' && c.columns.length === 1)
      return { dep: c.dep, column: c.columns[0] as string }
  return null
}
