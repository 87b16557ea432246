// Where clauses of shapes: validated once against the table's columns, then used twice, as
// the snapshot's SQL (run by Postgres) and as an evaluator for replicated rows; both agree.
import { flat } from '../flat.ts'
import { analyze, createContext, toBool } from './analyze/analyze.ts'
import { fail } from './analyze/context.ts'
import { resetBudget } from './budget.ts'
import { quoteLiteral, toSql } from './compile-sql.ts'
import { extractEqualities } from './equalities.ts'
import { EvalError, WhereError } from './errors.ts'
import { compile, matcher } from './evaluate.ts'
import { MAX_PARAM_LENGTH, MAX_PARAMS } from './limits.ts'
import { parseWhere } from './parse.ts'
import type { Expr } from './tree.ts'
import { LARGE_CLAUSE_CHARS, nextTurn, oneAtATime } from './turns.ts'
import { compileSubqueries } from './subqueries.ts'
import { MAX_SUBQUERIES } from './limits.ts'
import { subqueryTables, tableKey } from './analyze/sublink.ts'
import type { Context } from './analyze/context.ts'
import type {
  ColumnInfo,
  CompiledWhere,
  Equality,
  SubqueryTable,
} from './types.ts'

export { WhereError } from './errors.ts'
export { compileOrderBy } from './order-by.ts'
export type { ColumnInfo, CompiledWhere } from './types.ts'

/** Runs a compile step, refusing the clause when it fails as an evaluation would. */
function checked<T>(step: () => T): T {
  try {
    return step()
  } catch (error) {
    if (error instanceof EvalError) throw new WhereError(error.message)
    throw error
  }
}

/**
 * Compiles `where` (with `params` as $1..$n, all of which it must use) for a table with
 * `columns`. Throws WhereError for anything outside the supported subset.
 */
export async function compileWhere(
  where: string,
  params: string[],
  columns: Map<string, ColumnInfo>,
  /** Numbers the clause's params in `sql` from $paramBase+1, after another clause's. */
  paramBase = 0,
  subqueries: SubqueryOption = {},
): Promise<CompiledWhere> {
  if (params.length > MAX_PARAMS)
    fail(`too many parameters (more than ${MAX_PARAMS})`)
  const long = params.findIndex((p) => p.length > MAX_PARAM_LENGTH)
  if (long >= 0)
    fail(
      `parameter value for $${long + 1} is too long (more than ${MAX_PARAM_LENGTH} characters)`,
    )
  const size = params.reduce((sum, p) => sum + p.length, where.length)
  if (size <= LARGE_CLAUSE_CHARS) {
    const ast = await parseWhere(where)
    const tables = await loadTables(ast, subqueries)
    return compileParsed(ast, where, params, columns, paramBase, tables)
  }
  return oneAtATime(async () => {
    await nextTurn()
    const ast = await parseWhere(where)
    const tables = await loadTables(ast, subqueries)
    await nextTurn()
    return compileParsed(ast, where, params, columns, paramBase, tables)
  })
}

/**
 * Whether a clause may hold subqueries: `load` reads a table they name (its columns and
 * primary key); without it they are refused, with `refused` as the reason.
 */
type SubqueryOption = {
  load?: (table: { schema: string; name: string }) => Promise<SubqueryTable>
  refused?: string
}

type Tables = Pick<Context, 'subqueries' | 'subqueriesRefused'>

/** The tables the clause's subqueries read, loaded before the synchronous analysis. */
async function loadTables(
  ast: Awaited<ReturnType<typeof parseWhere>>,
  option: SubqueryOption,
): Promise<Tables> {
  if (!option.load) return { subqueriesRefused: option.refused }
  const named = subqueryTables(ast)
  if (named.length > MAX_SUBQUERIES)
    fail(`too many subqueries (more than ${MAX_SUBQUERIES})`)
  const tables = new Map<string, SubqueryTable>()
  for (const table of named)
    if (!tables.has(tableKey(table)))
      tables.set(tableKey(table), await option.load(table))
  return { subqueries: { tables, dependencies: [], count: { n: 0 } } }
}

/** Analyses and compiles a parsed clause: synchronous, one step. */
function compileParsed(
  ast: Awaited<ReturnType<typeof parseWhere>>,
  where: string,
  params: string[],
  columns: Map<string, ColumnInfo>,
  paramBase: number,
  tables: Tables,
): CompiledWhere {
  // Analysis (reading literals) and folding the constant parts spend one evaluation's budget,
  // as a row would; from here on compiling is synchronous, so nothing else spends it meanwhile.
  resetBudget()
  const { expr, evaluate, used, drafts } = checked(() => {
    const ctx = createContext(columns, params, tables)
    const expr = toBool(analyze(ast, ctx), 'WHERE', ctx)
    for (const step of ctx.deferred) step()
    for (let n = 1; n <= params.length; n++)
      if (!ctx.paramsUsed.has(n)) fail(`parameter value for $${n} was not used`)
    const drafts = ctx.subqueries?.dependencies ?? []
    return { expr, evaluate: compile(expr), used: ctx.columnsUsed, drafts }
  })
  const sql = flat(checked(() => toSql(expr, paramBase)))
  // `'…'::type` is what binding the text to `$n::type` does: the type's input function.
  const inlineSql = flat(
    checked(() => toSql(expr, (n) => quoteLiteral(params[n - 1] as string))),
  )
  const equalities = checked(() => extractEqualities(expr))
  return {
    source: where,
    sql,
    params: [...params],
    inlineSql,
    columns: used,
    equalities,
    matches: equalityTest(expr, equalities) ?? matcher(evaluate),
    ...(drafts.length > 0 && {
      subqueries: checked(() => compileSubqueries(expr, drafts, params)),
    }),
  }
}

/**
 * A clause that is one `column = constant` (the `team_id = $1` of most apps' shapes), as the
 * text comparison it is: equalities hold only for types whose text output is exact
 * (equalities.ts), and replication sends that output. No value is parsed, no budget charged.
 */
function equalityTest(
  expr: Expr,
  equalities: Equality[],
): CompiledWhere['matches'] | null {
  const [only] = equalities
  if (expr.kind === 'and' || equalities.length !== 1 || !only) return null
  const { column, value } = only
  return (row) => Object.hasOwn(row, column) && row[column] === value
}
