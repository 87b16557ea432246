// A shape's columns and cells as the grid shows them (rows with their own table's columns),
// read from the `electric-schema` header the shape's first answers carry: it lists the table's
// columns in their order, primary key included, even when the shape has no rows.
import { z } from 'zod'

export type ShapeColumn = { name: string; pkIndex: number | null }

const headerSchema = z.record(
  z.string(),
  z.object({ pk_index: z.number().optional() }),
)

/** The columns a schema header names, in its order; null for no header or one unread. */
export function columnsOf(header: string | null): ShapeColumn[] | null {
  if (!header) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(header)
  } catch {
    return null
  }
  const schema = headerSchema.safeParse(parsed)
  if (!schema.success) return null
  return Object.entries(schema.data).map(([name, column]) => ({
    name,
    pkIndex: column.pk_index ?? null,
  }))
}

/** The primary key's columns in key order (none for a table without one). */
export const primaryKey = (columns: readonly ShapeColumn[]) =>
  columns
    .filter((column) => column.pkIndex !== null)
    .sort((a, b) => (a.pkIndex ?? 0) - (b.pkIndex ?? 0))
    .map((column) => column.name)

const bigintAsText = (_key: string, value: unknown) =>
  typeof value === 'bigint' ? value.toString() : value

/**
 * A cell's value for the grid to show and sort: numbers, booleans and text as they are, int8
 * (a BigInt from the client's parser) and json or array values as text.
 */
export function cellValue(value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'object') return JSON.stringify(value, bigintAsText)
  if (typeof value === 'number' || typeof value === 'boolean') return value
  return String(value)
}
