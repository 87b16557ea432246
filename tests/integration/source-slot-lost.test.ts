// A source's slot invalidated by max_slot_wal_keep_size (wal_status = lost) while Sluice runs
// it (fault F5 at the control plane's level): the source says so in its state and event log,
// never stale silently: `replication_slot_recreated` naming why, then `active` again on a new
// slot, and a client of the source's shape is told to refetch (409) and gets the rows.
import { ShapeStream, type Row } from '@electric-sql/client'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chmod } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPool, type Db } from '../../src/server/platform/db/database.ts'
import {
  startEmbeddedPostgres,
  type RunningPostgres,
} from '../../src/server/platform/db/embedded-postgres.ts'
import { replicationNames } from '../../src/engine/replication/names.ts'
import { signInLocally } from '../support/app.ts'
import { useControlPlaneDatabase } from '../support/database.ts'
import {
  eventNames,
  insertSource,
  personalTeam,
  sourceRow,
  startSourceServer,
  type SourceServer,
} from '../support/sources.ts'

const control = useControlPlaneDatabase()
let server: SourceServer
let source: RunningPostgres
let sourceDb: Db
let root: string

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'sluice-slot-lost-'))
  await chmod(root, 0o755)
  // Postgres keeps no WAL for a slot past 1 MB: a few segment switches and checkpoints lose it.
  source = await startEmbeddedPostgres({
    dir: join(root, 'pg'),
    settings: { max_slot_wal_keep_size: '1MB' },
  })
  sourceDb = createPool(source.url)
  await sourceDb.query(`create table items (id int primary key, body text);
    insert into items select i, 'row ' || i from generate_series(1, 50) i;
    create table filler (n int)`)
  server = await startSourceServer(control.db)
}, 60_000)

afterAll(async () => {
  await server?.stop()
  await sourceDb?.end()
  await source?.stop()
  await rm(root, { recursive: true, force: true })
})

describe('a lost slot', () => {
  it('is recreated with an event saying so, back to active, and clients refetch', async () => {
    const { user } = await signInLocally(server.app)
    const teamId = await personalTeam(control.db, user.id)
    const { id, secret } = await insertSource(
      control.db,
      server.key,
      teamId,
      source.url,
    )
    await expect
      .poll(async () => (await sourceRow(control.db, id))?.state, {
        timeout: 20_000,
      })
      .toBe('active')
    const rows = new Map<string, Row>()
    let refetches = 0
    const aborter = new AbortController()
    const stream = new ShapeStream<Row>({
      url: 'http://localhost/v1/shape',
      params: { table: 'items', source_id: id, source_secret: secret },
      fetchClient: (input, init) =>
        server.app.request(new Request(input, init)) as Promise<Response>,
      signal: aborter.signal,
    })
    stream.subscribe((messages) => {
      for (const m of messages) {
        if ('key' in m) rows.set(m.key, m.value)
        else if (m.headers.control === 'must-refetch') {
          refetches++
          rows.clear()
        }
      }
    })
    try {
      await expect.poll(() => rows.size, { timeout: 20_000 }).toBe(50)
      const { slot } = replicationNames(id)
      // WAL faster than the engine's confirmations move the slot's restart point.
      await expect
        .poll(
          async () => {
            await sourceDb.query(
              'insert into filler select generate_series(1, 20000)',
            )
            await sourceDb.query('select pg_switch_wal()')
            await sourceDb.query('checkpoint')
            return eventNames(control.db, id)
          },
          { timeout: 60_000, interval: 50 },
        )
        .toContain('replication_slot_recreated')
      await expect
        .poll(async () => (await sourceRow(control.db, id))?.state, {
          timeout: 20_000,
        })
        .toBe('active')
      const { rows: details } = await control.db.query<{ d: string }>(
        `select event_details::text as d from source_event_logs
          where source_id = $1 and event_name = 'replication_slot_recreated'`,
        [id],
      )
      expect(details[0]?.d).toContain('lost')
      const events = await eventNames(control.db, id)
      expect(
        events.slice(events.indexOf('replication_slot_recreated')),
      ).toContain('source_active')
      await sourceDb.query(`insert into items values (51, 'after')`)
      await expect.poll(() => rows.size, { timeout: 20_000 }).toBe(51)
      expect(refetches).toBeGreaterThan(0)
      const { rows: slots } = await sourceDb.query<{ wal_status: string }>(
        'select wal_status from pg_replication_slots where slot_name = $1',
        [slot],
      )
      expect(slots[0]?.wal_status).not.toBe('lost')
    } finally {
      aborter.abort()
    }
  }, 120_000)
})
