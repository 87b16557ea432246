// Table facts shared between shapes: equal facts are one object, changed facts a new one, and
// the columns a shape sends (with their schema header) are made once per table for shapes of
// every column.
import { expect, it } from 'vitest'
import {
  SharedTableInfo,
  sentColumns,
  type TableInfo,
} from '../../src/engine/shapes/table-info.ts'

const info = (notNull: boolean): TableInfo => ({
  table: { schema: 'public', name: 'items' },
  oid: 16384,
  signature: 'id:20,team_id:20,body:25',
  columns: [
    {
      name: 'id',
      type: 'int8',
      typeOid: 20,
      dims: 0,
      notNull: true,
      enum: false,
      pkIndex: 0,
      typeMod: -1,
      generated: '',
    },
    {
      name: 'team_id',
      type: 'int8',
      typeOid: 20,
      dims: 0,
      notNull,
      enum: false,
      pkIndex: null,
      typeMod: -1,
      generated: '',
    },
    {
      name: 'body',
      type: 'text',
      typeOid: 25,
      dims: 0,
      notNull: false,
      enum: false,
      pkIndex: null,
      typeMod: -1,
      generated: '',
    },
  ],
  primaryKey: ['id'],
  partitioned: false,
  unpublished: [],
})

it('hands out one object for equal facts, and a new one once they change', () => {
  const shared = new SharedTableInfo()
  const first = shared.share(info(false))
  expect(shared.share(info(false))).toBe(first)
  // Same columns and types (same signature), but NOT NULL now: new facts.
  const changed = shared.share(info(true))
  expect(changed).not.toBe(first)
  expect(changed.columns[1]?.notNull).toBe(true)
  expect(shared.share(info(true))).toBe(changed)
})

it('makes the columns of shapes of every column once, and others each time', () => {
  const table = new SharedTableInfo().share(info(false))
  const all = sentColumns(table, null)
  expect(all.columns).toEqual(['id', 'team_id', 'body'])
  expect(all.relation).toEqual(['public', 'items'])
  expect(JSON.parse(all.schema)).toEqual({
    id: { type: 'int8', pk_index: 0, not_null: true },
    team_id: { type: 'int8' },
    body: { type: 'text' },
  })
  expect(sentColumns(table, null)).toBe(all)
  // Chosen columns keep the primary key.
  const some = sentColumns(table, ['body'])
  expect(some.columns).toEqual(['id', 'body'])
  expect(JSON.parse(some.schema)).toEqual({
    id: { type: 'int8', pk_index: 0, not_null: true },
    body: { type: 'text' },
  })
})
