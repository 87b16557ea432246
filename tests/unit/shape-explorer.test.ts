import { FetchError } from '@electric-sql/client'
import { describe, expect, it } from 'vitest'
import {
  countErrorText,
  OFFLINE_SHAPE,
  OFFLINE_TABLES,
  shapeErrorText,
  tablesErrorText,
} from '../../src/app/features/shapes/explorer-errors.ts'
import { ApiError } from '../../src/app/lib/api.ts'
import {
  cellValue,
  columnsOf,
  primaryKey,
} from '../../src/app/features/shapes/shape-columns.ts'
import {
  canSubmit,
  rowCountWarning,
  shapeKey,
  tooManyRows,
} from '../../src/app/features/shapes/shape-rules.ts'
import { shapeSnippets } from '../../src/app/features/shapes/snippets.ts'
import {
  everyTableIsPublic,
  filterTables,
  parseTableParam,
  quotedTable,
  tableLabel,
  tableParam,
} from '../../src/app/features/shapes/table-names.ts'

const items = { schema: 'public', name: 'items' }
const events = { schema: 'audit', name: 'events' }

describe('table names', () => {
  it('labels tables without their schema only when every table is in public', () => {
    expect(everyTableIsPublic([items])).toBe(true)
    expect(everyTableIsPublic([items, events])).toBe(false)
    expect(everyTableIsPublic([])).toBe(true)
    expect(tableLabel(items, true)).toBe('items')
    expect(tableLabel(items, false)).toBe('public.items')
  })

  it('filters by a prefix of the name or of schema.name, ignoring case', () => {
    const tables = [items, events, { schema: 'public', name: 'Notes' }]
    expect(filterTables(tables, 'it')).toEqual([items])
    expect(filterTables(tables, 'audit.')).toEqual([events])
    expect(filterTables(tables, 'public.')).toEqual([tables[0], tables[2]])
    expect(filterTables(tables, 'notes')).toEqual([tables[2]])
    expect(filterTables(tables, 'tems')).toEqual([])
    expect(filterTables(tables, '  ')).toEqual(tables)
  })

  it('quotes both names for /v1/shape', () => {
    expect(quotedTable(items)).toBe('"public"."items"')
    expect(quotedTable({ schema: 'my "s"', name: 'a.b' })).toBe(
      '"my ""s"""."a.b"',
    )
  })

  it.each([
    [items, 'public.items'],
    [events, 'audit.events'],
    [{ schema: 'Sales', name: 'Order Lines' }, 'Sales.Order Lines'],
    [{ schema: 'a.b', name: 'c' }, '"a.b".c'],
    [{ schema: 's', name: 'say "hi"' }, 's."say ""hi"""'],
    [{ schema: '', name: 'x' }, '"".x'],
  ])('writes %o as the search param %s and reads it back', (table, param) => {
    expect(tableParam(table)).toBe(param)
    expect(parseTableParam(param)).toEqual(table)
  })

  it('reads a bare name as a table in public, and refuses malformed params', () => {
    expect(parseTableParam('items')).toEqual(items)
    expect(parseTableParam('"a.b"')).toEqual({ schema: 'public', name: 'a.b' })
    for (const bad of ['', 'a.b.c', 'a.', '.b', '"open', 'a"b', '"a"x.b'])
      expect(parseTableParam(bad)).toBeNull()
  })
})

describe('shape rules', () => {
  it('warns above 1,000 rows, not at 1,000', () => {
    expect(tooManyRows(1000)).toBe(false)
    expect(tooManyRows(1001)).toBe(true)
  })

  it('words the warning for a where clause and for none', () => {
    expect(rowCountWarning('items', 'id > 0', 1500)).toBe(
      'Shape for table items with WHERE clause "id > 0" has 1500 rows. Consider refining the WHERE clause to reduce the number of rows for the shape.',
    )
    expect(rowCountWarning('items', '', 1500)).toBe(
      'Shape for table items with empty where clause has 1500 rows. Consider refining the WHERE clause to reduce the number of rows for the shape.',
    )
    expect(rowCountWarning('items', 'id > 0', 1500, false)).toBe(
      'Shape for table items with WHERE clause "id > 0" has 1500 rows. Consider refining the WHERE clause to reduce the number of rows for the shape.',
    )
  })

  it('says when the count is Postgres’s estimate', () => {
    expect(rowCountWarning('items', 'id > 0', 300000, true)).toBe(
      'Shape for table items with WHERE clause "id > 0" has about 300000 rows (Postgres\'s estimate). Consider refining the WHERE clause to reduce the number of rows for the shape.',
    )
    expect(rowCountWarning('items', '', 300000, true)).toBe(
      "Shape for table items with empty where clause has about 300000 rows (Postgres's estimate). Consider refining the WHERE clause to reduce the number of rows for the shape.",
    )
  })

  it('keys shapes by team, source and table, never by the where clause', () => {
    const target = { teamId: 't', sourceId: 's', table: items }
    expect(shapeKey(target)).toBe(shapeKey({ ...target }))
    expect(shapeKey(target)).not.toBe(shapeKey({ ...target, table: events }))
    expect(shapeKey(target)).not.toBe(shapeKey({ ...target, sourceId: 'x' }))
  })

  it('offers Create shape for an edited clause or after a warning', () => {
    expect(canSubmit('id < 5', 'id < 5', false)).toBe(false)
    expect(canSubmit(' id < 5 ', 'id < 5', false)).toBe(false)
    expect(canSubmit('id < 6', 'id < 5', false)).toBe(true)
    expect(canSubmit('', 'id < 5', false)).toBe(true)
    expect(canSubmit('id < 5', 'id < 5', true)).toBe(true)
  })
})

describe('shape columns', () => {
  it('reads the columns and primary key in the schema header’s order', () => {
    const header = JSON.stringify({
      b_id: { type: 'int4', pk_index: 1 },
      label: { type: 'text' },
      a_id: { type: 'int4', pk_index: 0 },
    })
    const columns = columnsOf(header)
    expect(columns?.map((column) => column.name)).toEqual([
      'b_id',
      'label',
      'a_id',
    ])
    expect(primaryKey(columns ?? [])).toEqual(['a_id', 'b_id'])
    expect(columnsOf(null)).toBeNull()
    expect(columnsOf('not json')).toBeNull()
    expect(columnsOf('[1]')).toBeNull()
  })

  it('shows values the grid can sort and print', () => {
    expect(cellValue(null)).toBeNull()
    expect(cellValue(3)).toBe(3)
    expect(cellValue(true)).toBe(true)
    expect(cellValue(12n)).toBe('12')
    expect(cellValue({ a: [1, 2n] })).toBe('{"a":[1,"2"]}')
    expect(cellValue('text')).toBe('text')
  })
})

describe('snippets', () => {
  const shape = {
    url: 'https://sluice.example.com/v1/shape',
    params: {
      source_id: 'src-1',
      source_secret: 'sec-1',
      table: '"public"."items"',
      where: "label = 'it''s' and id > 1",
    },
    tableName: 'public.order_lines',
    keyColumns: ['id'],
  }
  const byId = (id: string) =>
    shapeSnippets(shape).find((snippet) => snippet.id === id)?.text ?? ''

  it('curl: the URL with every parameter, quoted for a shell', () => {
    const curl = byId('curl')
    const url = new URL(curl.slice("curl -i '".length, -1))
    expect(Object.fromEntries(url.searchParams)).toEqual({
      ...shape.params,
      offset: '-1',
    })
    expect(curl.slice("curl -i '".length, -1)).not.toContain("'")
  })

  it('ShapeStream: the url and params as string literals that read back', () => {
    const text = byId('shape-stream')
    expect(text).toContain(
      "import { Shape, ShapeStream } from '@electric-sql/client'",
    )
    expect(text).toContain("url: 'https://sluice.example.com/v1/shape',")
    expect(text).toContain(`table: '"public"."items"',`)
    expect(text).toContain(String.raw`where: 'label = \'it\'\'s\' and id > 1',`)
  })

  it('TanStack DB: a collection named for the table, keyed by its primary key', () => {
    const text = byId('tanstack-db')
    expect(text).toContain(
      'export const orderLinesCollection = createCollection(',
    )
    expect(text).toContain('getKey: (row) => String(row.id),')
    const composite = shapeSnippets({
      ...shape,
      keyColumns: ['a', 'odd name'],
    }).find((snippet) => snippet.id === 'tanstack-db')?.text
    expect(composite).toContain(
      "getKey: (row) => JSON.stringify([row.a, row['odd name']]),",
    )
  })
})

describe('explorer errors', () => {
  it('say what the server refused, not its JSON', () => {
    const refused = new FetchError(
      400,
      '{"message":"Invalid request","errors":{"where":["column \\"nosuchcol\\" does not exist"]}}',
      undefined,
      {},
      'http://localhost/v1/shape',
    )
    expect(shapeErrorText(refused)).toBe(
      'Error creating shape: where: column "nosuchcol" does not exist',
    )
    const plain = new FetchError(
      503,
      undefined,
      { message: 'The source is not active yet' },
      {},
      'http://localhost/v1/shape',
    )
    expect(shapeErrorText(plain)).toBe(
      'Error creating shape: The source is not active yet',
    )
    expect(shapeErrorText(new Error('boom'))).toBe('Failed to fetch shape')
  })

  it('say the server cannot be reached rather than "Failed to fetch"', () => {
    const offline = new TypeError('Failed to fetch')
    expect(tablesErrorText(offline)).toBe(OFFLINE_TABLES)
    expect(countErrorText(offline)).toBe(OFFLINE_SHAPE)
    expect(countErrorText(new ApiError(400, 'bad', 'column x'))).toBe(
      'Code 400: column x',
    )
    expect(countErrorText(new Error('other'))).toBe('Failed to execute query')
  })
})
