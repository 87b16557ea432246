// A move-in's query: the rows a move brings into a shape, read in a snapshot of its own, with
// where that snapshot stands (which transactions it saw) and the WAL position then: every
// transaction it saw committed below that position, so once replication has delivered up to
// it the transactions the query saw are known (moves.ts splices them before its rows).
import type pg from 'pg'
import { parseLsn } from '../../pg/lsn.ts'
import { UnavailableError } from '../../unavailable.ts'
import type { Row } from '../../replication/types.ts'
import { qualifiedName, quoteIdent, type TableName } from '../definition.ts'
import { parseSnapshot, type Visibility } from '../visibility.ts'

export type MoveInResult = { rows: Row[]; visibility: Visibility; lsn: bigint }

export async function queryMoveIn(
  pool: pg.Pool,
  table: TableName,
  columns: string[],
  where: { sql: string; params: unknown[] },
): Promise<MoveInResult> {
  const client = await pool.connect().catch(() => null)
  if (!client) throw new UnavailableError('The database is unreachable')
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
    try {
      const { rows: at } = await client.query<{
        snapshot: string
        lsn: string
      }>(
        'SELECT pg_current_snapshot()::text AS snapshot, pg_current_wal_lsn()::text AS lsn',
      )
      const { rows } = await client.query<Row>(
        `SELECT ${columns.map(quoteIdent).join(', ')} FROM ${qualifiedName(table)} WHERE ${where.sql}`,
        where.params,
      )
      await client.query('COMMIT')
      return {
        rows,
        visibility: parseSnapshot(at[0]?.snapshot ?? '0:0:'),
        lsn: parseLsn(at[0]?.lsn ?? '0/0'),
      }
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {})
      throw error
    }
  } finally {
    client.release()
  }
}
