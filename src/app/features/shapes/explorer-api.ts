// The shape explorer's REST reads of a source's own database (/schema and /count),
// through the app's one fetch wrapper (how their failures read: explorer-errors.ts).
import { z } from 'zod'
import { api } from '../../lib/api.ts'
import type { TableRef } from './table-names.ts'
import {
  sourceCountPath,
  sourceSchemaPath,
} from '../../../shared/api-routes.ts'

const tablesSchema = z.array(z.object({ schema: z.string(), name: z.string() }))
const countSchema = z.object({
  count: z.number(),
  // Set when the count is the planner's estimate: far above the row limit, or when counting took
  // too long.
  estimate: z.boolean().optional(),
})

export function fetchTables(
  sourceId: string,
  signal: AbortSignal,
): Promise<TableRef[]> {
  return api(sourceSchemaPath(sourceId), tablesSchema, { signal })
}

export function countRows(
  sourceId: string,
  table: TableRef,
  where: string,
  signal: AbortSignal,
) {
  const query = new URLSearchParams({ schema: table.schema, name: table.name })
  if (where) query.set('where', where)
  return api(`${sourceCountPath(sourceId)}?${query}`, countSchema, { signal })
}
