// Where clauses of shapes: validated once against the table's columns, then used twice, as
// the snapshot's SQL (run by Postgres) and as an evaluator for replicated rows; both agree.
import { analyze, toBool } from './analyze/analyze.ts'
import { fail, type Context } from './analyze/context.ts'
import { toSql } from './compile-sql.ts'
import { extractEqualities } from './equalities.ts'
import { EvalError } from './errors.ts'
import { compile } from './evaluate.ts'
import { parseWhere } from './parse.ts'
import type { ColumnInfo, CompiledWhere } from './types.ts'

export { WhereError } from './errors.ts'
export type { ColumnInfo, CompiledWhere, Equality } from './types.ts'

/**
 * Compiles `where` (with `params` as $1..$n, all of which it must use) for a table with
 * `columns`. Throws WhereError for anything outside the supported subset.
 */
export async function compileWhere(
  where: string,
  params: string[],
  columns: Map<string, ColumnInfo>,
): Promise<CompiledWhere> {
  const ast = await parseWhere(where)
  const ctx: Context = {
    columns,
    params,
    paramTypes: new Map(),
    paramsUsed: new Set(),
    columnsUsed: new Set(),
    deferred: [],
  }
  const expr = toBool(analyze(ast, ctx), 'WHERE', ctx)
  for (const step of ctx.deferred) step()
  for (let n = 1; n <= params.length; n++)
    if (!ctx.paramsUsed.has(n)) fail(`parameter value for $${n} was not used`)
  const evaluate = compile(expr)
  return {
    source: where,
    sql: toSql(expr),
    params: [...params],
    columns: ctx.columnsUsed,
    equalities: extractEqualities(expr),
    // A row the clause fails on (division by zero, a value out of range) is not in the shape:
    // Postgres would have failed the snapshot rather than return it.
    matches(row) {
      try {
        return evaluate(row) === true
      } catch (error) {
        if (error instanceof EvalError) return false
        throw error
      }
    },
  }
}
