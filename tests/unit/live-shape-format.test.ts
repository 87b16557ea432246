// How a live shape's table and params read on the source page (live-shape-format.ts).
import { describe, expect, it } from 'vitest'
import type { LiveShape } from '../../src/shared/entities.ts'
import {
  shapeParamsText,
  shapeTableName,
} from '../../src/app/features/sources/live-shape-format.ts'

const shape = (table_schema: string, table_name: string): LiveShape => ({
  source_id: '00000000-0000-4000-8000-000000000001',
  handle: 'h1',
  table_schema,
  table_name,
  where_clause: null,
  params: [],
  row_count: 0,
  log_bytes: 0,
  created_at: '2024-03-05T14:07:09.250Z',
  last_read_at: null,
})

describe('shapeTableName', () => {
  it('leaves out the public schema, and names others', () => {
    expect(shapeTableName(shape('public', 'items'))).toBe('items')
    expect(shapeTableName(shape('sales', 'orders'))).toBe('sales.orders')
  })

  it('quotes names that would not read the same unquoted', () => {
    expect(shapeTableName(shape('Other', 'Mixed "Case"'))).toBe(
      '"Other"."Mixed ""Case"""',
    )
    expect(shapeTableName(shape('public', 'order items'))).toBe('"order items"')
  })
})

describe('shapeParamsText', () => {
  it('binds each param to its placeholder as a quoted literal', () => {
    expect(shapeParamsText(['7', "O'Brien"])).toEqual([
      "$1 = '7'",
      "$2 = 'O''Brien'",
    ])
    expect(shapeParamsText([])).toEqual([])
  })
})
