// How a live shape's definition reads in the Live shapes table, and how the table is ordered.
// Pure, so it is unit-tested.
import type { LiveShape } from '../../../shared/entities.ts'
import type { LiveShapeWithFigures } from '../../db/tab/figure-types.ts'

/** The table as a user names it: without `public.`, quoted only where a name needs it. */
export function shapeTableName(
  shape: Pick<LiveShape, 'table_schema' | 'table_name'>,
): string {
  const name = identifier(shape.table_name)
  return shape.table_schema === 'public'
    ? name
    : `${identifier(shape.table_schema)}.${name}`
}

// Lower-case names of letters, digits and underscores read the same unquoted.
const identifier = (name: string) =>
  /^[a-z_][a-z0-9_$]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`

/** Each param bound to its placeholder, as a literal: `$1 = '7'`. */
export function shapeParamsText(params: string[]): string[] {
  return params.map((value, i) => `$${i + 1} = '${value.replace(/'/g, "''")}'`)
}

const count = new Intl.NumberFormat()

/** A row count with the reader's digit grouping. */
export function formatRowCount(rows: number): string {
  return count.format(rows)
}

/** How the Live shapes can be ordered: as the store reads them (newest first), or hottest first. */
export type ShapeOrder = 'newest' | 'bytes' | 'clients'

/** The shapes in `order`; ties keep the store's order (newest first). */
export function orderShapes(
  shapes: LiveShapeWithFigures[],
  order: ShapeOrder,
): LiveShapeWithFigures[] {
  if (order === 'newest') return shapes
  const key =
    order === 'bytes'
      ? (shape: LiveShapeWithFigures) => shape.bytes_per_minute
      : (shape: LiveShapeWithFigures) => shape.clients
  return [...shapes].sort((a, b) => key(b) - key(a))
}
