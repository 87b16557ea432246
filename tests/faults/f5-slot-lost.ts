// F5: the engine's slot invalidated by max_slot_wal_keep_size (wal_status = 'lost') while the
// engine was away. On its restart it must see that at once, make a new slot, and rotate every
// shape (409) so clients refetch and converge: never serve stale logs silently.
import pg from 'pg'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { createPool } from '../../src/server/platform/db/database.ts'
import {
  freePort,
  startEmbeddedPostgres,
} from '../../src/server/platform/db/embedded-postgres.ts'
import { replicationNames } from '../../src/engine/replication/names.ts'
import { startTestEngine } from '../support/engine.ts'
import { waitUntil } from '../support/wait.ts'
import type { FaultScenario } from './scenario.ts'
import { follow, scratchDir, settle, truthOf } from './support.ts'

const COLUMNS = ['id', 'body']
const ID = 'f5_slot_lost'

export const f5: FaultScenario = {
  id: 'F5',
  title: 'slot invalidated by max_slot_wal_keep_size (wal_status lost)',
  quick: true,
  async run(ctx) {
    const root = await scratchDir('f5')
    // Postgres keeps no WAL for a slot past 1 MB: one segment switch and checkpoint lose it.
    const server = await startEmbeddedPostgres({
      dir: join(root, 'pg'),
      settings: { max_slot_wal_keep_size: '1MB' },
    })
    const db = createPool(server.url)
    await db.query('create table items (id int primary key, body text)')
    await db.query(
      `insert into items select i, 'row ' || i from generate_series(1, 100) i`,
    )
    await db.query('create table filler (n int)')
    const options = {
      id: ID,
      dataDir: join(root, 'engine'),
      port: await freePort(),
    }
    let engine = await startTestEngine(server.url, options)
    const client = follow(engine.shapeUrl, 'items')
    try {
      await waitUntil(
        'the snapshot to reach the client',
        () => client.rows.size === 100,
      )
      await db.query(`update items set body = 'seen live' where id <= 10`)
      await waitUntil(
        'live changes to reach the client',
        () =>
          [...client.rows.values()].filter((r) => r.body === 'seen live')
            .length === 10,
      )
      const handle = client.handles.at(-1)
      await engine.stop()
      // Changes the lost slot would have carried: only a new snapshot can bring them.
      await db.query(`update items set body = 'while lost' where id > 90`)
      await db.query('delete from items where id <= 5')
      const { slot } = replicationNames(ID)
      await waitUntil('the slot to be lost', async () => {
        await db.query('insert into filler select generate_series(1, 20000)')
        await db.query('select pg_switch_wal()')
        await db.query('checkpoint')
        const { rows } = await db.query<{ wal_status: string }>(
          'select wal_status from pg_replication_slots where slot_name = $1',
          [slot],
        )
        return rows[0]?.wal_status === 'lost'
      })
      ctx.log('F5: slot lost')
      const recreated: string[] = []
      const restarted = performance.now()
      engine = await startTestEngine(server.url, {
        ...options,
        events: { onSlotRecreated: (cause) => void recreated.push(cause) },
      })
      const result = await settle(
        client,
        () => truthOf(db, 'items', COLUMNS),
        COLUMNS,
        restarted,
      )
      if (client.refetches === 0 || client.handles.at(-1) === handle)
        throw new Error(
          'the client was never told to refetch (409) after the slot was lost',
        )
      const admin = new pg.Client({ connectionString: server.url })
      await admin.connect()
      const { rows } = await admin.query<{ wal_status: string }>(
        'select wal_status from pg_replication_slots where slot_name = $1',
        [slot],
      )
      await admin.end()
      if (rows[0]?.wal_status !== 'reserved')
        throw new Error(`the new slot is ${rows[0]?.wal_status ?? 'missing'}`)
      return {
        ...result,
        notes: `${result.notes}; ${client.refetches} refetch(es), slot recreated (${recreated.join(', ')})`,
      }
    } finally {
      client.stop()
      await engine.destroy().catch(() => {})
      await db.end()
      await server.stop()
      await rm(root, { recursive: true, force: true })
    }
  },
}
