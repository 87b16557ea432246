// The migration runner's file rules; applying them runs against Postgres in integration.
import { describe, expect, it } from 'vitest'
import {
  MigrationError,
  sortMigrations,
  type Migration,
} from '../../src/shared/migrations.ts'

const m = (name: string): Migration => ({ name, sql: `-- ${name}` })

/** The MigrationError sortMigrations throws for `list`. */
function refusal(list: Migration[]): string {
  try {
    sortMigrations(list)
  } catch (error) {
    expect(error).toBeInstanceOf(MigrationError)
    return (error as MigrationError).message
  }
  throw new Error('sortMigrations accepted the list')
}

describe('sortMigrations', () => {
  it.each([
    '1_init.sql',
    '001_init.sql',
    '00001_init.sql',
    '0001-init.sql',
    '0001_Init.sql',
    '0001_init.SQL',
    '0001_init.sql.bak',
    '0001_.sql',
    'init.sql',
    '0001_init',
  ])('refuses the file name %s', (name) => {
    expect(refusal([m('0000_ok.sql'), m(name)])).toBe(
      `Bad migration file name "${name}": expected NNNN_name.sql`,
    )
  })

  it('refuses two migrations with one number', () => {
    expect(
      refusal([m('0001_init.sql'), m('0002_a.sql'), m('0002_b.sql')]),
    ).toBe('Migrations "0002_a.sql" and "0002_b.sql" share the number 0002')
  })

  it('orders by number, whatever order the files came in', () => {
    const names = ['0010_z.sql', '0002_b.sql', '0001_init.sql', '0003_a.sql']
    expect(sortMigrations(names.map(m)).map((x) => x.name)).toEqual([
      '0001_init.sql',
      '0002_b.sql',
      '0003_a.sql',
      '0010_z.sql',
    ])
  })

  it('leaves its input untouched and keeps each sql with its name', () => {
    const input = [m('0002_b.sql'), m('0001_a.sql')]
    const sorted = sortMigrations(input)
    expect(input.map((x) => x.name)).toEqual(['0002_b.sql', '0001_a.sql'])
    expect(sorted[0]).toEqual({ name: '0001_a.sql', sql: '-- 0001_a.sql' })
  })

  it('accepts an empty list', () => {
    expect(sortMigrations([])).toEqual([])
  })
})
