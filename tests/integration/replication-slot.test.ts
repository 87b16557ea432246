// Slot and publication setup against real Postgres: names Postgres accepts, idempotent
// creation, health, dropping (even while streaming) and the errors for missing rights.
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import {
  addTableToPublication,
  dropSlotAndPublication,
  ensurePublication,
  ensureSlot,
  replicationNames,
  ReplicationSetupError,
  slotHealth,
} from '../../src/engine/replication/slot.ts'
import { SESSION_OPTIONS } from '../../src/engine/database-config.ts'
import { startReplication } from '../../src/engine/replication/stream.ts'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { Recorder } from '../support/replication-harness.ts'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function database(): Promise<TestDatabase> {
  const created = await createTestDatabase()
  cleanups.push(() => created.drop())
  return created
}

function uniqueNames(id = randomBytes(6).toString('hex')) {
  return replicationNames(id)
}

/** A login role without ownership or REPLICATION, and a URL connecting as it. */
async function plainRole(
  db: TestDatabase,
): Promise<{ role: string; url: string }> {
  const role = `sluice_plain_${randomBytes(4).toString('hex')}`
  const password = randomBytes(12).toString('hex')
  await db.db.query(`create role ${role} login password '${password}'`)
  cleanups.push(async () => {
    await db.db.query(`drop owned by ${role}`)
    await db.db.query(`drop role ${role}`)
  })
  const url = new URL(db.url)
  url.username = role
  url.password = password
  return { role, url: url.toString() }
}

async function connectAs(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  cleanups.push(() => client.end())
  return client
}

describe('replicationNames', () => {
  it('derives one name Postgres accepts for both, distinct for distinct ids', async () => {
    expect(replicationNames('team_42')).toEqual({
      slot: 'sluice_team_42',
      publication: 'sluice_team_42',
    })
    const odd = ['Team-42', 'team 42', 'Ünïcode', 'x'.repeat(200)].map(
      (id) => replicationNames(id).slot,
    )
    for (const name of odd) expect(name).toMatch(/^sluice_[a-z0-9_]{1,56}$/)
    expect(new Set([...odd, replicationNames('team_42').slot]).size).toBe(5)
    expect(replicationNames('Team-42').slot).not.toBe(
      replicationNames('team_42').slot,
    )

    const db = await database()
    const name = replicationNames(`Weird-${'ü'.repeat(80)}`).slot
    cleanups.push(() => dropSlotAndPublication(db.db, name, name))
    await ensurePublication(db.db, name)
    await expect(ensureSlot(db.db, name)).resolves.toMatchObject({
      created: true,
    })
  })
})

describe('publication and slot', () => {
  it('creates each once and reports the slot health', async () => {
    const db = await database()
    const { slot, publication } = uniqueNames()
    cleanups.push(() => dropSlotAndPublication(db.db, slot, publication))

    expect(await slotHealth(db.db, slot)).toMatchObject({
      exists: false,
      walStatus: null,
    })
    expect(await ensurePublication(db.db, publication)).toEqual({
      created: true,
    })
    expect(await ensurePublication(db.db, publication)).toEqual({
      created: false,
    })
    const created = await ensureSlot(db.db, slot)
    expect(created.created).toBe(true)
    expect(created.consistentPoint).toBeGreaterThan(0n)
    expect(await ensureSlot(db.db, slot)).toEqual({ created: false })

    const health = await slotHealth(db.db, slot)
    expect(health).toMatchObject({
      exists: true,
      walStatus: 'reserved',
      active: false,
    })
    expect(health.confirmedFlushLsn).toBe(created.consistentPoint)
    expect(health.restartLsn).toBeLessThanOrEqual(created.consistentPoint ?? 0n)
    expect(health.retainedBytes).toBeGreaterThanOrEqual(0n)
  })

  it('drops slot and publication, even while a session streams from the slot', async () => {
    const db = await database()
    const { slot, publication } = uniqueNames()
    await ensurePublication(db.db, publication)
    await ensureSlot(db.db, slot)
    const stream = await startReplication({
      connectionString: db.url,
      slot,
      publication,
      startLsn: 0n,
      handler: new Recorder(),
    })

    await dropSlotAndPublication(db.db, slot, publication)
    await expect(stream.done).rejects.toBeDefined()
    expect((await slotHealth(db.db, slot)).exists).toBe(false)
    const { rows } = await db.db.query(
      'select 1 from pg_publication where pubname = $1',
      [publication],
    )
    expect(rows).toHaveLength(0)
    // Dropping what is already gone is fine.
    await dropSlotAndPublication(db.db, slot, publication)
  })
})

describe('ensureSlot on an engine session (lock_timeout 200 ms)', () => {
  it('waits for the transactions running when the slot is made, however long they take', async () => {
    const db = await database()
    const { slot, publication } = uniqueNames()
    cleanups.push(() => dropSlotAndPublication(db.db, slot, publication))
    await db.db.query('create table busy (id int)')
    const app = await db.db.connect()
    const engine = new pg.Client({
      connectionString: db.url,
      options: SESSION_OPTIONS,
    })
    await engine.connect()
    cleanups.push(() => engine.end())
    try {
      // A transaction with an xid: a new logical slot waits for it to end.
      await app.query('begin; insert into busy values (1)')
      const made = ensureSlot(engine, slot)
      await expect
        .poll(async () => {
          const { rows } = await db.db.query(
            `select count(*)::int as n from pg_stat_activity
              where wait_event_type = 'Lock' and query like '%pg_create_logical_replication_slot%'`,
          )
          return rows[0]?.n
        })
        .toBe(1)
      // Well past the session's lock_timeout: this wait keeps none of the app's statements.
      await expect
        .poll(
          async () => {
            const { rows } = await db.db.query(
              `select extract(epoch from now() - query_start) * 1000 as ms
                 from pg_stat_activity
                where query like '%pg_create_logical_replication_slot%'
                  and pid <> pg_backend_pid()`,
            )
            return Number(rows[0]?.ms ?? 0)
          },
          { timeout: 5_000 },
        )
        .toBeGreaterThan(400)
      await app.query('commit')
      await expect(made).resolves.toMatchObject({ created: true })
    } finally {
      await app.query('rollback').catch(() => {})
      app.release()
    }
  })
})

describe('ensurePublication on a publication made by an older Sluice', () => {
  it('brings it to partitions by their own names and stored generated columns, saying so', async () => {
    const db = await database()
    const { slot, publication } = uniqueNames()
    cleanups.push(() => dropSlotAndPublication(db.db, slot, publication))
    await db.db.query(
      `create publication ${publication} with (publish_via_partition_root = true)`,
    )
    expect(await ensurePublication(db.db, publication)).toEqual({
      created: false,
      ran: `ALTER PUBLICATION "${publication}" SET (publish_via_partition_root = false, publish_generated_columns = stored);`,
    })
    expect(await ensurePublication(db.db, publication)).toEqual({
      created: false,
    })
    const { rows } = await db.db.query(
      'select pubviaroot, pubgencols from pg_publication where pubname = $1',
      [publication],
    )
    expect(rows).toEqual([{ pubviaroot: false, pubgencols: 's' }])
  })
})

describe('addTableToPublication', () => {
  it('sets REPLICA IDENTITY FULL and publishes the table, once', async () => {
    const db = await database()
    const { slot, publication } = uniqueNames()
    cleanups.push(() => dropSlotAndPublication(db.db, slot, publication))
    await ensurePublication(db.db, publication)
    await db.db.query(
      'create schema "Odd"; create table "Odd"."My Table" (id int primary key)',
    )

    expect(
      await addTableToPublication(db.db, publication, 'Odd', 'My Table'),
    ).toEqual({
      changed: true,
      ran: [
        'ALTER TABLE "Odd"."My Table" REPLICA IDENTITY FULL;',
        `ALTER PUBLICATION "${publication}" ADD TABLE "Odd"."My Table";`,
      ],
    })
    expect(
      await addTableToPublication(db.db, publication, 'Odd', 'My Table'),
    ).toEqual({
      changed: false,
      ran: [],
    })
    const { rows } = await db.db.query<{
      replident: string
      published: boolean
    }>(
      `select c.relreplident::text as replident,
              exists (select 1 from pg_publication_tables
                       where pubname = $1 and schemaname = 'Odd' and tablename = 'My Table')
                as published
         from pg_class c where c.oid = '"Odd"."My Table"'::regclass`,
      [publication],
    )
    expect(rows[0]).toEqual({ replident: 'f', published: true })
    await expect(
      addTableToPublication(db.db, publication, 'public', 'nope'),
    ).rejects.toThrow('Table "public"."nope" does not exist')
  })

  it('names the table and the SQL to run when the role does not own it', async () => {
    const db = await database()
    const { role, url } = await plainRole(db)
    await db.db.query('create table owned_elsewhere (id int primary key)')
    await db.db.query(`grant create on database ${db.name} to ${role}`)
    const client = await connectAs(url)
    const { slot, publication } = uniqueNames()
    cleanups.push(() => dropSlotAndPublication(db.db, slot, publication))
    await ensurePublication(client, publication)

    const error = await addTableToPublication(
      client,
      publication,
      'public',
      'owned_elsewhere',
    ).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ReplicationSetupError)
    const message = (error as Error).message
    expect(message).toContain('"public"."owned_elsewhere"')
    expect(message).toContain(`role "${role}" does not own it`)
    expect(message).toContain(
      'ALTER TABLE "public"."owned_elsewhere" REPLICA IDENTITY FULL;',
    )
    expect(message).toContain(
      `ALTER PUBLICATION "${publication}" ADD TABLE "public"."owned_elsewhere";`,
    )
    expect((error as ReplicationSetupError).table).toEqual({
      schema: 'public',
      name: 'owned_elsewhere',
    })
  })

  it('says which role needs REPLICATION when it may not create a slot', async () => {
    const db = await database()
    const { url, role } = await plainRole(db)
    const client = await connectAs(url)
    const error = await ensureSlot(client, uniqueNames().slot).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ReplicationSetupError)
    expect((error as ReplicationSetupError).sql).toBe(
      `ALTER ROLE "${role}" WITH REPLICATION;`,
    )
  })
})
