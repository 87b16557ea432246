// Parses a where clause with the real Postgres parser (libpg-query), as Electric does: inside
// `SELECT 1 WHERE <where>`, so syntax error locations count from the start of that query.
import { hasSqlDetails, parse, type Node } from 'libpg-query'
import { WhereError } from './errors.ts'
import { PREFIX } from './analyze/context.ts'
import { checkSize } from './check-size.ts'
import { MAX_WHERE_DEPTH, MAX_WHERE_LENGTH } from './limits.ts'

// What a bare `SELECT 1 WHERE ...` has; anything else came from the clause.
const SELECT_KEYS = new Set(['targetList', 'whereClause', 'limitOption', 'op'])

export async function parseWhere(where: string): Promise<Node> {
  if (where.length > MAX_WHERE_LENGTH)
    throw new WhereError(
      `where clause is too long (more than ${MAX_WHERE_LENGTH} characters)`,
    )
  let result
  try {
    result = await parse(PREFIX + where)
  } catch (error) {
    if (hasSqlDetails(error) && error.sqlDetails)
      throw new WhereError(
        `At location ${error.sqlDetails.cursorPosition}: ${error.sqlDetails.message}`,
        Math.max(error.sqlDetails.cursorPosition - PREFIX.length, 0),
      )
    // A deep clause can exhaust the stack inside the parser (or its JSON decoding); the
    // parser itself recovers, so this is only the clause's fault.
    if (error instanceof RangeError)
      throw new WhereError(
        `where clause is nested too deeply (more than ${MAX_WHERE_DEPTH} levels)`,
      )
    throw error
  }
  checkSize(result, PREFIX.length)
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
