// How many rows a shape of a source's table would hold, for the shape explorer's warning. The
// where clause is checked by the engine's own analyser against the table's columns (the subset
// /v1/shape accepts, refused with the same 400; a subquery's table must be readable too), and
// only the SQL the analyser renders from its typed tree reaches Postgres, identifiers quoted
// and params bound. The planner's estimate is asked first, and far above the row limit it is
// the answer, marked as one; below, the rows are counted read-only under a time limit, past
// which the estimate is answered after all. A huge table or a costly clause holds no
// connection for long.
import type pg from 'pg'
import {
  qualifiedName,
  type TableName,
  loadTableInfo,
  compileWhere,
  WhereError,
  type CompiledWhere,
} from '../../../engine/index.ts'
import { SHAPE_ROW_LIMIT } from '../../../shared/constants.ts'
import { invalid, unavailable, type Answer } from './answers.ts'
import { estimateRows, type CountQuery } from './estimate.ts'
import { readOnly, withClient } from './read.ts'
import { findTable } from './tables.ts'

export type CountRequest = {
  table: TableName
  /** As /v1/shape takes it; null for every row. */
  where: string | null
  /** Values of $1..$n. */
  params: string[]
}

/** `estimate` is there only when the count is the planner's estimate, not an exact count. */
export type RowCount = { count: number; estimate?: true }

export type CountLimits = {
  /** How long the exact count may run before the estimate is answered. */
  countTimeoutMs: number
  /** How long every other statement may run (the catalog reads, the estimate). */
  statementTimeoutMs: number
}

// Above this estimate the rows are not counted: so far past the row limit the exact number
// changes nothing the user sees (the page warns and creates no shape either way), while count(*)
// of a big table reads all of it and holds one of the source's two connections meanwhile.
const EXACT_COUNT_BOUND = 100 * SHAPE_ROW_LIMIT

const NO_ESTIMATE =
  'Counting the rows took too long, and Postgres has no estimate for this table yet (it has never been analysed). Narrow the where clause, or run ANALYZE on the table.'

export async function countRows(
  pool: pg.Pool,
  request: CountRequest,
  limits: CountLimits,
): Promise<Answer<RowCount>> {
  const { table } = request
  const found = await withClient(pool, (client) =>
    readOnly(client, limits.statementTimeoutMs, async () => {
      const found = await findTable(client, table)
      if (found.kind !== 'readable') return found
      return { ...found, info: await loadTableInfo(client, table) }
    }),
  )
  if (found.kind !== 'readable') return invalid({ table: [found.message] })
  let where: CompiledWhere | null = null
  if (request.where !== null) {
    const columns = new Map(found.info.columns.map((c) => [c.name, c]))
    try {
      where = await compileWhere(request.where, request.params, columns, 0, {
        load: (table) => readableTable(pool, table, limits),
      })
    } catch (error) {
      if (error instanceof WhereError)
        return invalid({ where: [error.message] })
      throw error
    }
  }
  const query: CountQuery = {
    oid: found.oid,
    from: `FROM ${qualifiedName(table)}${where ? ` WHERE (${where.sql})` : ''}`,
    params: where?.params ?? [],
  }
  const counted = await withClient(pool, (client) =>
    countOrEstimate(client, query, limits),
  )
  return counted ? { ok: true, value: counted } : unavailable(NO_ESTIMATE)
}

// A table a subquery reads, as the analyser needs it; refused as the shape's own would be.
async function readableTable(
  pool: pg.Pool,
  table: TableName,
  limits: CountLimits,
) {
  const info = await withClient(pool, (client) =>
    readOnly(client, limits.statementTimeoutMs, async () => {
      const found = await findTable(client, table)
      if (found.kind !== 'readable') throw new WhereError(found.message)
      return loadTableInfo(client, table)
    }),
  )
  return {
    columns: new Map(info.columns.map((c) => [c.name, c])),
    primaryKey: info.primaryKey,
  }
}

async function countOrEstimate(
  client: pg.ClientBase,
  query: CountQuery,
  limits: CountLimits,
): Promise<RowCount | null> {
  // Asked once: it decides whether to count, and stands in for a count cut short.
  const estimate = await estimateRows(client, query, limits.statementTimeoutMs)
  if (estimate !== null && estimate > EXACT_COUNT_BOUND)
    return { count: estimate, estimate: true }
  try {
    const { rows } = await readOnly(client, limits.countTimeoutMs, () =>
      client.query<{ count: string }>(
        `SELECT count(*) AS count ${query.from}`,
        query.params,
      ),
    )
    return { count: Number(rows[0]?.count ?? 0) }
  } catch (error) {
    // 57014: Postgres cancelled the count at its statement_timeout; 55P03: at its lock_timeout
    // (the explorer never queues behind the app's locks: SESSION_OPTIONS).
    const code = (error as { code?: string }).code
    if (code !== '57014' && code !== '55P03') throw error
  }
  return estimate === null ? null : { count: estimate, estimate: true }
}
