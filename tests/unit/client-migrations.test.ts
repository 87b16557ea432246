// The browser store's migrations on real PGlite (in Node): applied once, recorded, and a newer
// release's migration upgrades a database that already holds synced rows without losing them.
import { PGlite } from '@electric-sql/pglite'
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { migrateLocal } from '../../src/app/db/shared/migrations.ts'
import type { Migration } from '../../src/shared/migrations.ts'

const dir = new URL('../../migrations/client/', import.meta.url)
const shipped: Migration[] = readdirSync(dir)
  .filter((name) => name.endsWith('.sql'))
  .map((name) => ({ name, sql: readFileSync(new URL(name, dir), 'utf8') }))

// Loading PGlite's wasm takes seconds on a busy 2-core machine.
describe('client migrations on PGlite', { timeout: 60_000 }, () => {
  it('applies every shipped migration once', async () => {
    const pg = await PGlite.create()
    expect(await migrateLocal(pg, shipped)).toEqual(
      shipped.map((m) => m.name).sort(),
    )
    expect(await migrateLocal(pg, shipped)).toEqual([])
    const { rows } = await pg.query<{ name: string }>(
      'select name from schema_migrations',
    )
    expect(rows.map((r) => r.name)).toEqual(shipped.map((m) => m.name).sort())
    await pg.close()
  })

  it('refuses a migration changed after it was applied, up to date otherwise', async () => {
    const pg = await PGlite.create()
    await migrateLocal(pg, shipped)
    const [first, ...rest] = shipped
      .slice()
      .sort((a, b) => a.name.localeCompare(b.name))
    const edited = { ...first!, sql: `${first!.sql}\n-- edited` }
    await expect(migrateLocal(pg, [edited, ...rest])).rejects.toThrow(
      `Migration "${first!.name}" was changed after it was applied; add a new migration instead`,
    )
    await pg.close()
  })

  it('upgrades a database holding synced rows without losing them', async () => {
    const pg = await PGlite.create()
    await migrateLocal(pg, shipped)
    await pg.query(
      `insert into user_teams (user_id, team_id, name)
       values ('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', 'Kept')`,
    )
    const next: Migration = {
      name: '9999_add_team_colour.sql',
      sql: 'alter table user_teams add column colour text',
    }
    expect(await migrateLocal(pg, [...shipped, next])).toEqual([next.name])
    const { rows } = await pg.query<{ name: string; colour: string | null }>(
      'select name, colour from user_teams',
    )
    expect(rows).toEqual([{ name: 'Kept', colour: null }])
    await pg.close()
  })

  it('rolls back a failing migration entirely', async () => {
    const pg = await PGlite.create()
    await migrateLocal(pg, shipped)
    const broken: Migration = {
      name: '9998_broken.sql',
      sql: 'create table half_done (id int); select * from no_such_table',
    }
    await expect(migrateLocal(pg, [...shipped, broken])).rejects.toThrow(
      /no_such_table/,
    )
    const { rows } = await pg.query(`select to_regclass('half_done') as t`)
    expect(rows).toEqual([{ t: null }])
    await pg.close()
  })
})
