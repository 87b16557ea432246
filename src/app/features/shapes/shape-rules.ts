// The shape explorer's decisions, apart from React: which shapes are remembered under one key, when
// a row count is too many, and what the warning says.
import { SHAPE_ROW_LIMIT } from '../../../shared/constants.ts'
import type { TableRef } from './table-names.ts'

/** What the page asks for: a table of a source of a team, narrowed by a where clause. */
export type ShapeTarget = {
  teamId: string
  sourceId: string
  table: TableRef
  /** Trimmed; '' for none. */
  where: string
}

/** Shapes are remembered per team, source and table; the where clause is kept per key. */
export const shapeKey = (target: Omit<ShapeTarget, 'where'>) =>
  JSON.stringify([
    target.teamId,
    target.sourceId,
    target.table.schema,
    target.table.name,
  ])

export const tooManyRows = (count: number) => count > SHAPE_ROW_LIMIT

/**
 * The too-many-rows warning: it quotes the where clause, or says the clause is empty, rather
 * than leaving an "(or empty where clause)" for the user to read past. A count that is
 * Postgres's estimate (a big table, or counting took too long) says so.
 */
export function rowCountWarning(
  table: string,
  where: string,
  count: number,
  estimate = false,
) {
  const clause = where === '' ? 'empty where clause' : `WHERE clause "${where}"`
  const rows = estimate
    ? `about ${count} rows (Postgres's estimate)`
    : `${count} rows`
  return `Shape for table ${table} with ${clause} has ${rows}. Consider refining the WHERE clause to reduce the number of rows for the shape.`
}

/**
 * Create shape only for a where clause other than the one asked for, or to ask again
 * after a warning. Surrounding spaces make no new clause.
 */
export const canSubmit = (draft: string, asked: string, warned: boolean) =>
  warned || draft.trim() !== asked
