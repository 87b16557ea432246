// The source runtime against real source databases: a new source becomes active with its slot
// and events, its health is measured, a dropped connection reconnects, and lost rights end in
// an error a user can act on. Passwords never reach the rows or the event logs.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Engine } from '../../src/engine/engine.ts'
import { replicationNames } from '../../src/engine/replication/names.ts'
import { silentLogger } from '../../src/server/platform/log.ts'
import { EngineSourceRuntime } from '../../src/server/sources/runtime/engine-runtime.ts'
import { signInLocally } from '../support/app.ts'
import { useControlPlaneDatabase } from '../support/database.ts'
import {
  createSourceDatabase,
  eventNames,
  insertSource,
  personalTeam,
  privateTargetsAllowed,
  sourceRow,
  startSourceServer,
  type SourceDatabase,
  type SourceServer,
} from '../support/sources.ts'

const control = useControlPlaneDatabase()
let server: SourceServer
let teamId: string
const databases: SourceDatabase[] = []

beforeAll(async () => {
  server = await startSourceServer(control.db)
  const { user } = await signInLocally(server.app)
  teamId = await personalTeam(control.db, user.id)
}, 60_000)

afterAll(async () => {
  await server?.stop()
  for (const database of databases) await database.drop()
})

async function newSource(options?: { passwordIsDatabaseName?: boolean }) {
  const database = await createSourceDatabase(undefined, options)
  databases.push(database)
  const source = await insertSource(
    control.db,
    server.key,
    teamId,
    database.url,
  )
  return { database, ...source }
}

const stateOf = async (id: string) => (await sourceRow(control.db, id))?.state

async function eventDetails(id: string): Promise<string> {
  const { rows } = await control.db.query<{ text: string }>(
    `select coalesce(string_agg(event_details::text || instance_id, ' '), '') as text
       from source_event_logs where source_id = $1`,
    [id],
  )
  return rows[0]?.text ?? ''
}

async function terminateWalsender(database: SourceDatabase, slot: string) {
  await expect
    .poll(async () => {
      const { rows } = await database.admin.query<{ n: number }>(
        `select count(pg_terminate_backend(active_pid))::int as n
           from pg_replication_slots where slot_name = $1 and active_pid is not null`,
        [slot],
      )
      return rows[0]?.n
    })
    .toBe(1)
}

describe('the source runtime', () => {
  it('takes a new source from initializing to active, with its slot, events and health', async () => {
    const { database, id } = await newSource()
    expect(await stateOf(id)).toBe('initializing')
    await expect.poll(() => stateOf(id), { timeout: 20_000 }).toBe('active')
    expect(await eventNames(control.db, id)).toEqual([
      'replication_slot_created',
      'source_active',
    ])
    const { slot } = replicationNames(id)
    const { rows: slots } = await database.admin.query(
      'select 1 from pg_replication_slots where slot_name = $1',
      [slot],
    )
    expect(slots).toHaveLength(1)
    await expect
      .poll(async () => (await sourceRow(control.db, id))?.health_checked_at, {
        timeout: 10_000,
      })
      .not.toBeNull()
    const row = await sourceRow(control.db, id)
    expect(row?.wal_status).toBe('reserved')
    expect(Number(row?.wal_retained_bytes)).toBeGreaterThanOrEqual(0)
    expect(Number(row?.wal_lag_bytes)).toBeGreaterThanOrEqual(0)
    expect(row?.state_reason).toBeNull()
    const { rows: instances } = await control.db.query<{ instance_id: string }>(
      'select distinct instance_id from source_event_logs where source_id = $1',
      [id],
    )
    expect(instances).toEqual([{ instance_id: server.engine.instanceId }])
  }, 60_000)

  it('goes reconnecting and back to active when its walsender is terminated', async () => {
    const { database, id } = await newSource()
    await expect.poll(() => stateOf(id), { timeout: 20_000 }).toBe('active')
    await terminateWalsender(database, replicationNames(id).slot)
    await expect
      .poll(() => eventNames(control.db, id), { timeout: 20_000 })
      .toEqual([
        'replication_slot_created',
        'source_active',
        'source_reconnecting',
        'source_active',
      ])
    expect(await stateOf(id)).toBe('active')
  }, 60_000)

  it('ends in error, saying how to fix it, when the role loses REPLICATION', async () => {
    const { database, id } = await newSource()
    await expect.poll(() => stateOf(id), { timeout: 20_000 }).toBe('active')
    await database.admin.query(`alter role ${database.role} noreplication`)
    await terminateWalsender(database, replicationNames(id).slot)
    await expect.poll(() => stateOf(id), { timeout: 20_000 }).toBe('error')
    const row = await sourceRow(control.db, id)
    expect(row?.state_reason).toContain(
      `ALTER ROLE "${database.role}" WITH REPLICATION`,
    )
    const events = await eventNames(control.db, id)
    expect(events.at(-1)).toBe('source_error')
    // The restored right is picked up by the next retry: back to active, no restart needed.
    await database.admin.query(`alter role ${database.role} replication`)
    await expect.poll(() => stateOf(id), { timeout: 30_000 }).toBe('active')
    expect((await sourceRow(control.db, id))?.state_reason).toBeNull()
    const details = await eventDetails(id)
    expect(details).not.toContain(database.password)
    expect(details).not.toContain(encodeURIComponent(database.password))
  }, 90_000)

  // Postgres names the database in 'permission denied for database "..."'; when the password is
  // that name, its words are withheld whole (masking them used to splice '********' in).
  it('withholds what Postgres said when it holds the password', async () => {
    const { database, id } = await newSource({ passwordIsDatabaseName: true })
    await expect.poll(() => stateOf(id), { timeout: 20_000 }).toBe('active')
    const name = new URL(database.url).pathname.slice(1)
    expect(name).toBe(database.password)
    await database.admin.query(
      `revoke connect on database ${name} from public, ${database.role}`,
    )
    try {
      await terminateWalsender(database, replicationNames(id).slot)
      await expect.poll(() => stateOf(id), { timeout: 20_000 }).toBe('error')
      const reason = (await sourceRow(control.db, id))?.state_reason
      expect(reason).toBe(
        'Permission denied. Grant the role what replication needs (REPLICATION and CREATE on the database).',
      )
      const details = await eventDetails(id)
      expect(details).not.toContain(database.password)
      expect(details).not.toContain('*')
    } finally {
      await database.admin.query(
        `grant connect on database ${name} to public, ${database.role}`,
      )
    }
  }, 60_000)

  it('does not write when nothing changed', async () => {
    const { id } = await newSource()
    await expect.poll(() => stateOf(id), { timeout: 20_000 }).toBe('active')
    const before = await eventNames(control.db, id)
    // Several polls and a kick later, the log is the same.
    for (let i = 0; i < 3; i++) await server.runtime.reconcile()
    expect(await eventNames(control.db, id)).toEqual(before)
  }, 60_000)

  it('is run by one server at a time; another takes over when it stops', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sluice-second-'))
    const engine = new Engine({ dataDir })
    const second = new EngineSourceRuntime({
      engine,
      db: control.db,
      key: server.key,
      log: silentLogger,
      pollIntervalMs: 100,
      pinHost: privateTargetsAllowed,
    })
    second.start()
    try {
      const { database, id } = await newSource()
      await expect.poll(() => stateOf(id), { timeout: 20_000 }).toBe('active')
      // Both have looked at the table since; only one of them streams the slot.
      await second.reconcile()
      const runner = server.runtime.database(id) ? server.runtime : second
      const other = runner === second ? server.runtime : second
      expect(other.database(id)).toBeUndefined()
      expect(runner.database(id)).toBeDefined()
      // The runner stopping (its claims session ends with it) hands the source over.
      await runner.stop()
      await expect
        .poll(() => other.database(id) !== undefined, { timeout: 20_000 })
        .toBe(true)
      const { rows } = await database.admin.query(
        'select 1 from pg_replication_slots where slot_name = $1 and active',
        [replicationNames(id).slot],
      )
      expect(rows).toHaveLength(1)
      expect(await stateOf(id)).toBe('active')
      if (runner === server.runtime) {
        await server.stop()
        server = await startSourceServer(control.db)
      }
    } finally {
      await second.stop()
      await engine.stop()
      await rm(dataDir, { recursive: true, force: true })
    }
  }, 60_000)
})
