// F6: the user changes the schema under live shapes: adds and removes a column, renames a table,
// drops a published table. Shapes of that table must rotate (409, clients refetch and converge)
// or fail with a clear 4xx, and the stream must keep going for the other tables.
import { createTestDatabase } from '../support/database.ts'
import { startTestEngine } from '../support/engine.ts'
import { waitUntil } from '../support/wait.ts'
import type { FaultResult, FaultScenario } from './scenario.ts'
import {
  compare,
  explain,
  follow,
  settle,
  truthOf,
  writeLoad,
  type Follower,
} from './support.ts'

const COLUMNS = ['id', 'body']

export const f6: FaultScenario = {
  id: 'F6',
  title: 'schema changes: add/drop column, rename and drop a table',
  quick: true,
  async run(ctx) {
    const source = await createTestDatabase(ctx.adminUrl)
    for (const table of ['steady', 'altered', 'renamed', 'dropped'])
      await source.db.query(
        `create table ${table} (id int primary key, body text);
         insert into ${table} select i, 'row ' || i from generate_series(1, 20) i`,
      )
    const engine = await startTestEngine(source.url)
    const followers = new Map<string, Follower>()
    for (const table of ['steady', 'altered', 'renamed', 'dropped'])
      followers.set(table, follow(engine.shapeUrl, table))
    const of = (table: string) => followers.get(table) as Follower
    const matches = async (table: string) =>
      compare(of(table), await truthOf(source.db, table, COLUMNS), COLUMNS).same
    const notes: string[] = []
    try {
      for (const table of followers.keys())
        await waitUntil(`the ${table} snapshot`, () => matches(table))
      // Writes to another table go on through every change below.
      const load = writeLoad(source.db, 'steady', 1000)

      const altered = of('altered')
      await source.db.query('alter table altered add column extra text')
      await source.db.query(
        `insert into altered values (100, 'after add', 'x')`,
      )
      await waitUntil(
        'altered to rotate and converge (column added)',
        async () =>
          altered.refetches >= 1 &&
          (await matches('altered')) &&
          altered.rows.get(keyOf(altered, 100))?.extra === 'x',
      ).catch(explain(altered))
      await source.db.query('alter table altered drop column extra')
      await source.db.query(`insert into altered values (101, 'after drop')`)
      await waitUntil(
        'altered to rotate and converge (column dropped)',
        async () =>
          altered.refetches >= 2 &&
          (await matches('altered')) &&
          altered.rows.get(keyOf(altered, 101))?.extra === undefined,
      ).catch(explain(altered))
      notes.push(`column add/drop: ${altered.refetches} refetches`)

      const renamed = of('renamed')
      await source.db.query('alter table renamed rename to renamed_now')
      await source.db.query(
        `insert into renamed_now values (100, 'after rename')`,
      )
      await waitUntil("the renamed table's shape to end with a 4xx", () =>
        renamed.errorStatuses.some((s) => s >= 400 && s < 500),
      ).catch(explain(renamed))
      notes.push(
        `rename: ${renamed.refetches} refetch, then ${renamed.errorStatuses.join('/')}`,
      )

      const dropped = of('dropped')
      await source.db.query('drop table dropped')
      await waitUntil("the dropped table's shape to end with a 4xx", () =>
        dropped.errorStatuses.some((s) => s >= 400 && s < 500),
      ).catch(explain(dropped))
      notes.push(
        `drop: ${dropped.refetches} refetch, then ${dropped.errorStatuses.join('/')}`,
      )

      const end = performance.now()
      const atEnd = load.written
      await waitUntil(
        'writes after the changes',
        () => load.written >= atEnd + 20,
      )
      await load.stop()
      const steady = await settle(
        of('steady'),
        () => truthOf(source.db, 'steady', COLUMNS),
        COLUMNS,
        end,
      )
      const alteredNow = compare(
        altered,
        await truthOf(source.db, 'altered', COLUMNS),
        COLUMNS,
      )
      const result: FaultResult = {
        lost: steady.lost + alteredNow.lost,
        duplicated: steady.duplicated + alteredNow.duplicated,
        recoverMs: steady.recoverMs,
        notes: `${steady.notes} (steady); ${notes.join('; ')}`,
      }
      return result
    } finally {
      for (const follower of followers.values()) follower.stop()
      await engine.destroy().catch(() => {})
      await source.drop()
    }
  },
}

// The client's key of a row, found by its id (the key's format is the engine's business).
function keyOf(follower: Follower, id: number): string {
  for (const [key, row] of follower.rows)
    if (String(row.id) === String(id)) return key
  return ''
}
