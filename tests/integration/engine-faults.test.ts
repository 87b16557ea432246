// Faults the engine must ride out: its own restart (clients resume with the same handle, no
// gap, no double), a lost slot (clients get 409 and converge). The fault matrix's scenarios
// (source crash, partition, slot invalidation, schema changes) are in tests/faults/.
import { Shape, ShapeStream } from '@electric-sql/client'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { replicationNames } from '../../src/engine/replication/names.ts'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine } from '../support/engine.ts'

type Message = {
  key?: string
  value?: Record<string, string>
  headers: Record<string, unknown>
}

async function page(url: string) {
  const response = await fetch(url)
  expect(response.status).toBe(200)
  return {
    handle: response.headers.get('electric-handle') ?? '',
    offset: response.headers.get('electric-offset') ?? '',
    upToDate: response.headers.has('electric-up-to-date'),
    messages: (await response.json()) as Message[],
  }
}

/**
 * Follows a shape with plain requests, as a client would: through the snapshot, then live
 * until at least `changes` change messages arrived. Returns rows by key and where it stopped.
 */
async function follow(
  base: string,
  start: { handle: string; offset: string } | null,
  changes = 0,
) {
  const rows = new Map<string, Record<string, string>>()
  const seen: string[] = []
  let handle = start?.handle ?? ''
  let offset = start?.offset ?? '-1'
  let live = false
  while (true) {
    const url =
      offset === '-1'
        ? `${base}&offset=-1`
        : `${base}&offset=${offset}&handle=${handle}${live ? '&live=true' : ''}`
    const p = await page(url)
    handle = p.handle
    offset = p.offset
    for (const m of p.messages) {
      if (!m.key) continue
      if (m.headers.lsn)
        seen.push(
          `${m.key}@${String(m.headers.lsn)}:${String(m.headers.op_position)}`,
        )
      if (m.headers.operation === 'delete') rows.delete(m.key)
      else rows.set(m.key, { ...rows.get(m.key), ...m.value })
    }
    if (p.upToDate && seen.length >= changes)
      return { rows, seen, handle, offset }
    if (p.upToDate) live = true
  }
}

describe('engine faults', () => {
  let source: TestDatabase
  beforeAll(async () => {
    source = await createTestDatabase()
    await source.db.query(`create table notes (id int primary key, body text)`)
    await source.db.query(
      `insert into notes select i, 'n' || i from generate_series(1, 50) i`,
    )
  })
  afterAll(async () => {
    await source?.drop()
  })

  it('resumes a client after an engine restart with the same handle, no gap, no double', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sluice-restart-'))
    const first = await startTestEngine(source.url, { dataDir, id: 'restart' })
    const base = `${first.shapeUrl}?table=notes`
    const before = await follow(base, null)
    expect(before.rows.size).toBe(50)
    await source.db.query(`update notes set body = 'changed' where id <= 5`)
    const middle = await follow(base, before, 5)
    expect(middle.seen).toHaveLength(5)
    await first.stop()

    await source.db.query(`insert into notes values (51, 'while down')`)
    await source.db.query(`delete from notes where id = 1`)
    const second = await startTestEngine(source.url, { dataDir, id: 'restart' })
    const after = await follow(`${second.shapeUrl}?table=notes`, middle, 2)
    expect(after.handle).toBe(before.handle)
    expect(after.seen).toHaveLength(2)
    expect(new Set(after.seen).size).toBe(after.seen.length)
    await second.destroy()
    await rm(dataDir, { recursive: true, force: true })
  }, 60_000)

  it('recreates a dropped slot and sends clients 409, after which they converge', async () => {
    const engine = await startTestEngine(source.url, { id: 'slotloss' })
    const aborter = new AbortController()
    const shape = new Shape(
      new ShapeStream({
        url: engine.shapeUrl,
        params: { table: 'notes' },
        signal: aborter.signal,
      }),
    )
    await shape.rows
    const handle = shape.handle
    const { slot } = replicationNames('slotloss')
    const admin = new pg.Client({ connectionString: source.url })
    await admin.connect()
    // The engine reconnects quickly: terminate its walsender and drop the slot until it sticks.
    await expect
      .poll(async () => {
        await admin.query(
          `select pg_terminate_backend(active_pid) from pg_replication_slots
            where slot_name = $1 and active_pid is not null`,
          [slot],
        )
        return admin.query('select pg_drop_replication_slot($1)', [slot]).then(
          () => true,
          () => false,
        )
      })
      .toBe(true)
    await admin.query(`update notes set body = 'after loss' where id = 2`)
    await expect.poll(() => shape.handle, { timeout: 20_000 }).not.toBe(handle)
    await expect
      .poll(() => shape.currentRows.find((r) => r.id === 2)?.body, {
        timeout: 20_000,
      })
      .toBe('after loss')
    aborter.abort()
    await admin.end()
    await engine.destroy()
  }, 60_000)
})

describe('large transactions', () => {
  it('streams a transaction of 150,000 rows to a shape', async () => {
    const source = await createTestDatabase()
    await source.db.query(`create table bulk (id int primary key)`)
    const engine = await startTestEngine(source.url)
    const aborter = new AbortController()
    const shape = new Shape(
      new ShapeStream({
        url: engine.shapeUrl,
        params: { table: 'bulk' },
        signal: aborter.signal,
      }),
    )
    await shape.rows
    await source.db.query(
      `insert into bulk select i from generate_series(1, 150000) i`,
    )
    await source.db.query(`insert into bulk values (0)`)
    await expect
      .poll(() => shape.currentRows.length, { timeout: 60_000 })
      .toBe(150_001)
    aborter.abort()
    await engine.destroy()
    await source.drop()
  }, 120_000)
})

describe('bounded disk', () => {
  it('rotates a shape whose log outgrows its snapshot; clients refetch and converge', async () => {
    const source = await createTestDatabase()
    await source.db.query(`create table hot (id int primary key, v int)`)
    await source.db.query(`insert into hot values (1, 0)`)
    const engine = await startTestEngine(source.url, {
      logLimit: { minBytes: 4096, growthFactor: 4 },
    })
    const aborter = new AbortController()
    const shape = new Shape(
      new ShapeStream({
        url: engine.shapeUrl,
        params: { table: 'hot' },
        signal: aborter.signal,
      }),
    )
    await shape.rows
    const handle = shape.handle
    for (let i = 1; i <= 100; i++)
      await source.db.query('update hot set v = $1 where id = 1', [i])
    await expect.poll(() => shape.handle, { timeout: 20_000 }).not.toBe(handle)
    await expect
      .poll(() => shape.currentRows[0]?.v, { timeout: 20_000 })
      .toBe(100)
    const files = await readdir(join(engine.dataDir, 'databases'), {
      recursive: true,
    })
    expect(files.filter((f) => f.endsWith('/log')).length).toBeLessThanOrEqual(
      1,
    )
    aborter.abort()
    await engine.destroy()
    await source.drop()
  }, 60_000)
})
