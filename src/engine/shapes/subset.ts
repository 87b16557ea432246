// Subset snapshots: the rows of a shape that also match a client's where, in its order, limit
// and offset, read in one REPEATABLE READ transaction whose snapshot (xmin, xmax, xip and the
// WAL position) tells the client which later changes the rows already hold. The clauses go
// through the where compiler (params bound, never spliced), and every statement runs under a
// timeout on one of the database's pooled connections, held only while the rows are read.
import { randomInt } from 'node:crypto'
import type pg from 'pg'
import { lsnToDecimal, parseLsn } from '../pg/lsn.ts'
import type { Row } from '../replication/types.ts'
import { qualifiedName, quoteIdent } from './definition.ts'
import { whereFor } from './reopen.ts'
import type { Shape } from './shape.ts'
import { loadTableInfo } from './table-info.ts'
import { parseSnapshot } from './visibility.ts'
import { compileOrderBy, compileWhere, WhereError } from '../where/index.ts'

export type Subset = {
  where: string | null
  /** Values of the subset where's $1..$n, in order. */
  params: string[]
  limit: number | null
  offset: number | null
  orderBy: string | null
}

/** As Electric sends it: xids and the LSN as decimal strings, the mark as a number. */
type SubsetMetadata = {
  xmin: string
  xmax: string
  xip_list: string[]
  database_lsn: string
  snapshot_mark: number
}

/** A subset the client got wrong (a 400 naming the field), found before or by Postgres. */
export class SubsetError extends Error {
  constructor(
    readonly field: 'where' | 'order_by' | 'params',
    message: string,
  ) {
    super(message)
  }
}

/** The subset's rows, read batch by batch; close() ends the transaction (always call it). */
export type SubsetRows = {
  metadata: SubsetMetadata
  next(): Promise<Row[]>
  close(failed?: boolean): Promise<void>
}

const BATCH = 1000

// Postgres rejecting what the client sent: bad input for a type (an enum label, a date),
// an operator that does not apply (ordering a json column), a value out of range.
const CLIENT_SQLSTATE = /^(22|42)/

function clientError(error: unknown): SubsetError | null {
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' && CLIENT_SQLSTATE.test(code))
    return new SubsetError('where', (error as Error).message)
  return null
}

/** Compiles the shape's where and the subset's into one query over the shape's columns. */
async function buildQuery(client: pg.ClientBase, shape: Shape, subset: Subset) {
  const info = await loadTableInfo(client, shape.definition.table)
  const base = await whereFor(shape.definition, info, (table) =>
    loadTableInfo(client, table),
  )
  // The subset may filter and order by the shape's queryable columns, by default the ones it
  // sends: a column the shape does not send (a server-fixed definition hiding a secret) must
  // not be searchable through it unless the definition says so.
  const sent = new Set(shape.definition.queryable ?? shape.view.columns)
  const columns = new Map(
    info.columns.filter((c) => sent.has(c.name)).map((c) => [c.name, c]),
  )
  const clauses = base ? [`(${base.sql})`] : []
  const params = base ? [...base.params] : []
  try {
    if (subset.where) {
      const where = await compileWhere(
        subset.where,
        subset.params,
        columns,
        params.length,
        { refused: 'Subqueries are not allowed in subsets' },
      )
      clauses.push(`(${where.sql})`)
      params.push(...where.params)
    } else if (subset.params.length > 0)
      throw new SubsetError('params', 'params given without a where clause')
  } catch (error) {
    if (error instanceof WhereError)
      throw new SubsetError('where', error.message)
    throw error
  }
  let orderBy = ''
  try {
    if (subset.orderBy)
      orderBy = ` ORDER BY ${await compileOrderBy(subset.orderBy, columns)}`
  } catch (error) {
    if (error instanceof WhereError)
      throw new SubsetError('order_by', error.message)
    throw error
  }
  // The columns sent, and those a shape with subqueries tags its rows by.
  const list = shape.readColumns.map(quoteIdent).join(', ')
  const where = clauses.length ? ` WHERE ${clauses.join(' AND ')}` : ''
  const limit = subset.limit === null ? '' : ` LIMIT ${subset.limit}`
  const offset = subset.offset === null ? '' : ` OFFSET ${subset.offset}`
  return {
    sql: `SELECT ${list} FROM ${qualifiedName(shape.definition.table)}${where}${orderBy}${limit}${offset}`,
    params,
  }
}

/**
 * Starts reading a subset of `shape` on a connection from `pool`: compiles it, fixes the
 * snapshot and opens a cursor. Throws SubsetError for the client's mistakes.
 */
export async function openSubset(
  pool: pg.Pool,
  shape: Shape,
  subset: Subset,
  statementTimeoutMs: number,
): Promise<SubsetRows> {
  const client = await pool.connect()
  let open = false
  let released = false
  const close = async (failed = false) => {
    if (released) return
    released = true
    if (open) await client.query(failed ? 'ROLLBACK' : 'COMMIT').catch(() => {})
    open = false
    // A connection that failed mid-transaction is not trusted again.
    client.release(failed ? true : undefined)
  }
  try {
    const query = await buildQuery(client, shape, subset)
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
    open = true
    await client.query(
      `SET LOCAL statement_timeout = ${Math.max(1, Math.floor(statementTimeoutMs))}`,
    )
    const { rows } = await client.query<{ snapshot: string; lsn: string }>(
      'SELECT pg_current_snapshot()::text AS snapshot, pg_current_wal_lsn()::text AS lsn',
    )
    const visibility = parseSnapshot(rows[0]?.snapshot ?? '0:0:')
    const metadata: SubsetMetadata = {
      xmin: visibility.xmin.toString(),
      xmax: visibility.xmax.toString(),
      xip_list: visibility.xip.map(String),
      database_lsn: lsnToDecimal(parseLsn(rows[0]?.lsn ?? '0/0')),
      snapshot_mark: randomInt(2 ** 31 - 1),
    }
    await client.query(
      `DECLARE subset_rows NO SCROLL CURSOR FOR ${query.sql}`,
      query.params,
    )
    return {
      metadata,
      async next() {
        try {
          const batch = await client.query<Row>(
            `FETCH ${BATCH} FROM subset_rows`,
          )
          return batch.rows
        } catch (error) {
          throw clientError(error) ?? error
        }
      },
      close,
    }
  } catch (error) {
    await close(true)
    throw clientError(error) ?? error
  }
}
