// How many rows the planner expects, asked before counting (far above the row limit it is the
// answer) and standing in for a count cut short by its time limit: EXPLAIN's estimate for the
// very query (so the where clause counts), or, when even planning has to wait (a lock on the
// table), the row counts VACUUM and ANALYZE left in pg_class, which are read without touching
// the table.
import type pg from 'pg'
import { isSqlState } from '../../validation/sqlstate.ts'
import { readOnly } from './read.ts'

export type CountQuery = {
  /** The table's oid, for its statistics. */
  oid: number
  /** `FROM ... [WHERE ...]`, with the where clause's params as $1..$n. */
  from: string
  params: string[]
}

type Plan = { Plan: { 'Plan Rows': number } }

async function plannedRows(
  client: pg.ClientBase,
  query: CountQuery,
): Promise<number | null> {
  const { rows } = await client.query<{ 'QUERY PLAN': Plan[] }>(
    `EXPLAIN (FORMAT JSON) SELECT 1 ${query.from}`,
    query.params,
  )
  const planned = rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows']
  return typeof planned === 'number' ? planned : null
}

// The table's own rows and, for a partitioned (or inherited) table, those of every table under
// it, as a count of it would read them. reltuples is -1 until the first VACUUM or ANALYZE.
const STATISTICS_SQL = `
  with recursive tree(oid) as (
    select $1::oid
    union all
    select i.inhrelid from pg_catalog.pg_inherits i join tree t on i.inhparent = t.oid
  )
  select coalesce(sum(greatest(c.reltuples, 0)), 0)::float8 as rows,
         coalesce(bool_or(c.reltuples < 0), false) as unknown
    from tree t join pg_catalog.pg_class c on c.oid = t.oid
   where c.relkind = 'r'`

async function statisticsRows(
  client: pg.ClientBase,
  oid: number,
): Promise<number | null> {
  const { rows } = await client.query<{ rows: number; unknown: boolean }>(
    STATISTICS_SQL,
    [oid],
  )
  const row = rows[0]
  return row && !row.unknown ? row.rows : null
}

/** The planner's estimate, or null when Postgres has none (a table never analysed, locked). */
export async function estimateRows(
  client: pg.ClientBase,
  query: CountQuery,
  timeoutMs: number,
): Promise<number | null> {
  try {
    const planned = await readOnly(client, timeoutMs, () =>
      plannedRows(client, query),
    )
    if (planned !== null) return Math.round(planned)
  } catch (error) {
    // A Postgres error (a lock outlasting the limit) leaves the statistics to try; any other
    // failure means the connection itself is in doubt.
    if (!isSqlState((error as { code?: string }).code)) throw error
  }
  const rows = await readOnly(client, timeoutMs, () =>
    statisticsRows(client, query.oid),
  )
  return rows === null ? null : Math.round(rows)
}
