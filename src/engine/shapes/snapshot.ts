// The initial snapshot of a shape: one REPEATABLE READ transaction whose first statement fixes
// the snapshot (pg_current_snapshot), then the rows: by COPY, as the log's bytes
// (snapshot-copy.ts); or, for a shape with subqueries, whose rows' tags are computed here,
// through a cursor, in batches. A changes-only shape takes the snapshot point alone: its log
// starts there, with no rows.
import type pg from 'pg'
import { TableBusyError } from '../replication/publication.ts'
import { sqlState } from '../pg/sql.ts'
import type { Row } from '../replication/types.ts'
import { UnavailableError } from '../unavailable.ts'
import { qualifiedName, quoteIdent, type TableName } from './definition.ts'
import type { Shape } from './shape.ts'
import { parseSnapshot, type Visibility } from './visibility.ts'
import type { CompiledWhere } from '../where/types.ts'
import type { SubqueryMoves } from './subqueries/moves.ts'
import { loadDependencies } from './subqueries/queries.ts'
import { copySnapshot, snapshotCopySql } from './snapshot-copy.ts'

const BATCH = 5000
// The first batch is small: it fills a client's first answer (the smallest chunk of the ramp,
// storage/chunks.ts) in moments, however wide the rows and however long the rest takes.
const FIRST_BATCH = 500
const LOCK_NOT_AVAILABLE = '55P03'

/** Fills a new shape's log with its snapshot, on a connection of its own, and completes it. */
export async function snapshotShape(
  pool: pg.Pool,
  shape: Shape,
  where: CompiledWhere | null,
): Promise<void> {
  const client = await pool.connect().catch(() => null)
  // Clients read a failure's message (503): a socket error would name addresses and ports.
  if (!client) throw new UnavailableError('The database is unreachable')
  try {
    // Read no faster than the log is written: memory stays flat whatever the table's size. A
    // shape rotated or deleted meanwhile (or the engine stopping) stops the read there.
    const caughtUp = async () => {
      if (shape.closed)
        throw shape.failure ?? new Error('the shape closed during its snapshot')
      await shape.log.writesCaughtUp()
    }
    const visibility = await takeSnapshot(client, {
      table: shape.definition.table,
      columns: shape.readColumns,
      where,
      changesOnly: shape.definition.log === 'changes_only',
      subqueries: shape.mover?.subqueries ?? null,
      // Rows with tags are computed here (their subqueries' values); the others are COPY's.
      read: shape.view.tagged
        ? { rows: (rows) => shape.addSnapshotRows(rows), caughtUp }
        : {
            copySql: snapshotCopySql(shape.view, shape.definition.table, where),
            lines: (lines, rows) => shape.addSnapshotLines(lines, rows),
            caughtUp,
          },
    })
    await shape.completeSnapshot(visibility)
  } catch (error) {
    // Its table locked by the app past LOCK_WAIT_MS (SESSION_OPTIONS): said so, tried later.
    if (sqlState(error) === LOCK_NOT_AVAILABLE)
      throw new TableBusyError(qualifiedName(shape.definition.table))
    throw error
  } finally {
    client.release()
  }
}

/** How the rows are read: through a cursor, as row objects; or by COPY, as log lines. */
type SnapshotRead = { caughtUp: () => Promise<void> } & (
  | { rows: (rows: Row[]) => void }
  | { copySql: string; lines: (lines: Buffer, rows: number) => void }
)

async function takeSnapshot(
  client: pg.PoolClient,
  query: {
    table: TableName
    columns: string[]
    where: CompiledWhere | null
    changesOnly?: boolean
    /** Subqueries whose rows are read in the same snapshot as the shape's own. */
    subqueries?: SubqueryMoves | null
    read: SnapshotRead
  },
): Promise<Visibility> {
  const columns = query.columns.map(quoteIdent).join(', ')
  const where = query.where ? ` WHERE (${query.where.sql})` : ''
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
  try {
    const { rows } = await client.query<{ snapshot: string }>(
      'SELECT pg_current_snapshot()::text AS snapshot',
    )
    const visibility = parseSnapshot(rows[0]?.snapshot ?? '0:0:')
    // The subqueries' results as of this very snapshot: the rows read next agree with them.
    if (query.subqueries) {
      await loadDependencies(client, query.subqueries)
      query.subqueries.loaded()
    }
    if (query.changesOnly) {
      await client.query('COMMIT')
      return visibility
    }
    const read = query.read
    if ('copySql' in read) {
      // The whole table is one statement now, not a FETCH per batch: a statement_timeout the
      // database or role sets for the app's own queries would end a large snapshot midway.
      await client.query('SET LOCAL statement_timeout = 0')
      await copySnapshot(client, read.copySql, read.lines, read.caughtUp)
    } else {
      await client.query(
        `DECLARE shape_snapshot NO SCROLL CURSOR FOR SELECT ${columns} FROM ${qualifiedName(query.table)}${where}`,
        query.where?.params ?? [],
      )
      for (let size = FIRST_BATCH; ; size = BATCH) {
        const batch = await client.query<Row>(
          `FETCH ${size} FROM shape_snapshot`,
        )
        if (batch.rows.length > 0) {
          read.rows(batch.rows)
          await read.caughtUp()
        }
        if (batch.rows.length < size) break
      }
    }
    await client.query('COMMIT')
    return visibility
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  }
}
