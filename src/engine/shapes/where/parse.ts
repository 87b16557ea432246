// Parses a where clause with the real Postgres parser (libpg-query), as Electric does: inside
// `SELECT 1 WHERE <where>`, so syntax error locations count from the start of that query.
import { hasSqlDetails, parse, type Node } from 'libpg-query'
import { WhereError } from './errors.ts'
import { PREFIX } from './analyze/context.ts'

// What a bare `SELECT 1 WHERE ...` has; anything else came from the clause.
const SELECT_KEYS = new Set(['targetList', 'whereClause', 'limitOption', 'op'])

export async function parseWhere(where: string): Promise<Node> {
  let result
  try {
    result = await parse(PREFIX + where)
  } catch (error) {
    if (hasSqlDetails(error) && error.sqlDetails)
      throw new WhereError(
        `At location ${error.sqlDetails.cursorPosition}: ${error.sqlDetails.message}`,
        Math.max(error.sqlDetails.cursorPosition - PREFIX.length, 0),
      )
    throw error
  }
  const stmts = result.stmts ?? []
  if (stmts.length !== 1)
    throw new WhereError('unescaped ";" causing statement split')
  const stmt = stmts[0]?.stmt
  if (!stmt || !('SelectStmt' in stmt))
    throw new WhereError('malformed where clause')
  const select = stmt.SelectStmt
  const extra = Object.keys(select).some((k) => !SELECT_KEYS.has(k))
  if (extra || select.op !== 'SETOP_NONE' || !select.whereClause)
    throw new WhereError('malformed query ending with SQL clauses')
  return select.whereClause
}
