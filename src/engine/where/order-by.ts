// A subset's ORDER BY, checked as a where clause is: parsed by the real Postgres parser, each
// sort key analysed by the same analyser (columns of the table, supported operators and
// functions, no params) and written back as SQL by the same compiler, so only validated
// constructs reach the database.
import { hasSqlDetails, parse, type Node as PgNode } from 'libpg-query'
import { analyze, createContext } from './analyze/analyze.ts'
import { resetBudget } from './budget.ts'
import { checkSize } from './check-size.ts'
import { toSql } from './compile-sql.ts'
import { EvalError, WhereError } from './errors.ts'
import { MAX_WHERE_DEPTH, MAX_WHERE_LENGTH } from './limits.ts'
import { LARGE_CLAUSE_CHARS, nextTurn, oneAtATime } from './turns.ts'
import type { ColumnInfo } from './types.ts'

const PREFIX = 'SELECT 1 ORDER BY '
const SELECT_KEYS = new Set(['targetList', 'sortClause', 'limitOption', 'op'])

async function parseOrderBy(text: string): Promise<PgNode[]> {
  if (text.length > MAX_WHERE_LENGTH)
    throw new WhereError(
      `order_by is too long (more than ${MAX_WHERE_LENGTH} characters)`,
    )
  let result
  try {
    result = await parse(PREFIX + text)
  } catch (error) {
    if (hasSqlDetails(error) && error.sqlDetails)
      throw new WhereError(
        `At location ${error.sqlDetails.cursorPosition}: ${error.sqlDetails.message}`,
      )
    if (error instanceof RangeError)
      throw new WhereError(
        `order_by is nested too deeply (more than ${MAX_WHERE_DEPTH} levels)`,
      )
    throw error
  }
  checkSize(result, PREFIX.length)
  const stmt = result.stmts?.length === 1 ? result.stmts[0]?.stmt : undefined
  if (!stmt || !('SelectStmt' in stmt))
    throw new WhereError('malformed order_by')
  const select = stmt.SelectStmt
  const extra = Object.keys(select).some((k) => !SELECT_KEYS.has(k))
  if (extra || select.op !== 'SETOP_NONE' || !select.sortClause?.length)
    throw new WhereError('malformed order_by')
  return select.sortClause
}

/**
 * The SQL of an ORDER BY list over a table with `columns`. Throws WhereError for anything
 * outside the where clause's subset, for USING, and for keys that sort by no column (Postgres
 * reads `ORDER BY 1` as a position in the select list, which is ours, not the client's).
 */
export async function compileOrderBy(
  text: string,
  columns: Map<string, ColumnInfo>,
): Promise<string> {
  if (text.length <= LARGE_CLAUSE_CHARS)
    return compileKeys(await parseOrderBy(text), columns)
  // Taking turns with large where clauses, for the same reason (turns.ts).
  return oneAtATime(async () => {
    await nextTurn()
    const items = await parseOrderBy(text)
    await nextTurn()
    return compileKeys(items, columns)
  })
}

function compileKeys(
  items: PgNode[],
  columns: Map<string, ColumnInfo>,
): string {
  const keys: string[] = []
  for (const item of items) {
    if (!('SortBy' in item) || !item.SortBy.node)
      throw new WhereError('malformed order_by')
    const { node, sortby_dir, sortby_nulls, useOp } = item.SortBy
    if (useOp) throw new WhereError('ORDER BY ... USING is not supported')
    resetBudget()
    const ctx = createContext(columns, [])
    let sql: string
    try {
      const expr = analyze(node, ctx)
      for (const step of ctx.deferred) step()
      if (expr.kind === 'unknown' || ctx.columnsUsed.size === 0)
        throw new WhereError('each order_by key must use a column')
      sql = toSql(expr)
    } catch (error) {
      if (error instanceof EvalError) throw new WhereError(error.message)
      throw error
    }
    if (sortby_dir === 'SORTBY_DESC') sql += ' DESC'
    else if (sortby_dir === 'SORTBY_ASC') sql += ' ASC'
    if (sortby_nulls === 'SORTBY_NULLS_FIRST') sql += ' NULLS FIRST'
    else if (sortby_nulls === 'SORTBY_NULLS_LAST') sql += ' NULLS LAST'
    keys.push(sql)
  }
  return keys.join(', ')
}
