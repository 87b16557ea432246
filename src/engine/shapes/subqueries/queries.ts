// What a shape with subqueries reads besides its snapshot: a move-in's rows, or its subqueries'
// rows again, each in a snapshot of its own, with where that snapshot stands (which
// transactions it saw) and the WAL position then: every transaction it saw committed below
// that position, so once replication has delivered up to it the transactions the query saw
// are known (mover.ts applies them before what the query read).
import type pg from 'pg'
import { parseLsn, walEndOf } from '../../pg/lsn.ts'
import { UnavailableError } from '../../unavailable.ts'
import type { Row } from '../../replication/types.ts'
import { qualifiedName, quoteIdent, type TableName } from '../definition.ts'
import { parseSnapshot, type Visibility } from '../visibility.ts'
import type { SubqueryMoves } from './moves.ts'

export type MoveInResult = { rows: Row[]; visibility: Visibility; lsn: bigint }

/** A snapshot's position: which transactions it saw, and the WAL position then. */
export type SnapshotPoint = { visibility: Visibility; lsn: bigint }

/** Reads every subquery's rows into `subqueries` (innermost first), in the open transaction. */
export async function loadDependencies(
  client: pg.ClientBase,
  subqueries: SubqueryMoves,
): Promise<void> {
  for (const dependency of subqueries.all) {
    const { sql, params } = dependency.query()
    const found = await client.query<Row>(sql, params)
    for (const row of found.rows) dependency.load(row)
  }
}

/**
 * Reads every subquery's rows again, at a snapshot of their own: a restarted engine resuming a
 * shape (mover.ts). Answers where that snapshot stands.
 */
export async function reloadDependencies(
  pool: pg.Pool,
  subqueries: SubqueryMoves,
): Promise<SnapshotPoint> {
  return inSnapshot(pool, async (client) => {
    subqueries.reset()
    await loadDependencies(client, subqueries)
  })
}

export async function queryMoveIn(
  pool: pg.Pool,
  table: TableName,
  columns: string[],
  where: { sql: string; params: unknown[] },
): Promise<MoveInResult> {
  let rows: Row[] = []
  const at = await inSnapshot(pool, async (client) => {
    const found = await client.query<Row>(
      `SELECT ${columns.map(quoteIdent).join(', ')} FROM ${qualifiedName(table)} WHERE ${where.sql}`,
      where.params,
    )
    rows = found.rows
  })
  return { rows, ...at }
}

// Which transactions the snapshot sees, and where the WAL stood then (its page and segment
// sizes say where replication will report that position: pg/lsn.ts walEndOf).
const SNAPSHOT_POINT = `SELECT pg_current_snapshot()::text AS snapshot,
  pg_current_wal_insert_lsn()::text AS lsn,
  current_setting('wal_block_size') AS block,
  (SELECT setting FROM pg_settings WHERE name = 'wal_segment_size') AS segment`

// Runs `read` in a read-only snapshot of its own, first noting where that snapshot stands.
async function inSnapshot(
  pool: pg.Pool,
  read: (client: pg.ClientBase) => Promise<void>,
): Promise<SnapshotPoint> {
  const client = await pool.connect().catch(() => null)
  if (!client) throw new UnavailableError('The database is unreachable')
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
    try {
      const { rows: at } = await client.query<{
        snapshot: string
        lsn: string
        block: string
        segment: string
      }>(SNAPSHOT_POINT)
      await read(client)
      await client.query('COMMIT')
      const point = at[0]
      if (!point) throw new Error('the snapshot point query answered no row')
      return {
        visibility: parseSnapshot(point.snapshot),
        lsn: walEndOf(
          parseLsn(point.lsn),
          BigInt(point.block),
          BigInt(point.segment),
        ),
      }
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {})
      throw error
    }
  } finally {
    client.release()
  }
}
