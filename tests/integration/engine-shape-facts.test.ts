// What the engine tells about each shape it holds (ShapeDatabase.shapeFacts): its definition,
// the rows a client holds, its log's size, when it was made and last read. Kept in memory, so
// they must survive a restart through what the log and its index already store.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ShapeDatabase } from '../../src/engine/database.ts'
import {
  createTestDatabase,
  uniqueName,
  type TestDatabase,
} from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'

let source: TestDatabase
const engines: TestEngine[] = []
const dirs: string[] = []

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(`
    create table items (id int primary key, title text, n int);
    insert into items select g, 'item ' || g, g from generate_series(1, 5) g;
    create table notes (id int primary key, body text);
    insert into notes select g, 'note ' || g from generate_series(1, 5) g;
    create table big (id int primary key, pad text)`)
}, 60_000)

afterAll(async () => {
  for (const engine of engines) await engine.destroy()
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
  await source?.drop()
})

async function engineIn(dataDir: string, id: string) {
  const engine = await startTestEngine(source.url, { dataDir, id })
  engines.push(engine)
  return engine
}

/** Reads a shape through to up-to-date; answers its handle. */
async function readShape(shapeUrl: string, query: string): Promise<string> {
  let url = `${shapeUrl}?${query}&offset=-1`
  while (true) {
    const response = await fetch(url)
    expect(response.status).toBe(200)
    await response.arrayBuffer()
    const handle = response.headers.get('electric-handle') ?? ''
    if (response.headers.has('electric-up-to-date')) return handle
    url = `${shapeUrl}?${query}&handle=${handle}&offset=${response.headers.get('electric-offset')}`
  }
}

const factsOf = (database: ShapeDatabase, handle: string) =>
  database.shapeFacts().find((facts) => facts.handle === handle)

describe('shape facts', () => {
  it(
    'say what the shape is and count its rows as they move in and out',
    { timeout: 30_000 },
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'sluice-facts-'))
      dirs.push(dataDir)
      const before = Date.now()
      const engine = await engineIn(dataDir, uniqueName('facts'))
      const handle = await readShape(
        engine.shapeUrl,
        'table=items&where=n <= $1&params[1]=3',
      )
      const facts = factsOf(engine.database, handle)
      expect(facts).toEqual({
        handle,
        table: { schema: 'public', name: 'items' },
        where: 'n <= $1',
        params: ['3'],
        ready: true,
        rows: 3,
        logBytes: expect.any(Number),
        createdAt: expect.any(Number),
        lastReadAt: expect.any(Number),
        // Nobody waits on it now; its reader's two requests: the snapshot, then up-to-date.
        clients: 0,
        requests: 2,
        bytesSent: expect.any(Number),
        stalled: 0,
        changesWritten: 0,
        logEntries: 4,
        snapshotMs: expect.any(Number),
        lastRotation: null,
      })
      expect(facts?.bytesSent).toBeGreaterThan(0)
      expect(facts?.createdAt).toBeGreaterThanOrEqual(before)
      expect(facts?.lastReadAt).toBeGreaterThanOrEqual(facts?.createdAt ?? 0)
      const snapshotBytes = facts?.logBytes ?? 0
      expect(snapshotBytes).toBeGreaterThan(0)

      // In: a new row, a row updated into the clause. Out: a delete, a row updated out of it.
      // Neither: an update that stays in, a key change that stays in (delete and insert).
      await source.db.query(`
      insert into items values (10, 'ten', 0), (12, 'twelve', 2);
      update items set n = 1 where id = 4;
      delete from items where id = 1;
      update items set n = 9 where id = 2;
      update items set title = 'three' where id = 3;
      update items set id = 30 where id = 3`)
      await vi.waitFor(
        () => expect(factsOf(engine.database, handle)?.rows).toBe(4),
        { timeout: 10_000, interval: 20 },
      )
      const after = factsOf(engine.database, handle)
      expect(after?.logBytes).toBeGreaterThan(snapshotBytes)
      // Written: three in (two inserts, an update into it), two out, the update that stays,
      // and the key change's delete and insert.
      expect(after?.changesWritten).toBe(8)
      expect(after?.logEntries).toBe(4 + 8)
      // Nothing read it since: a change does not count as a read.
      expect(after?.lastReadAt).toBe(facts?.lastReadAt)

      // Rotated: no longer held.
      const shape = engine.database.byHandle(handle)
      if (shape) engine.database.rotate(shape, 'deleted')
      expect(factsOf(engine.database, handle)).toBeUndefined()
      expect(engine.database.invalidationsAfter(0)).toEqual([
        expect.objectContaining({
          handle,
          cause: 'deleted',
          clients: 0,
          bytesReread: 0,
          table: { schema: 'public', name: 'items' },
        }),
      ])
      // Its successor says why it came, and is credited with what its clients read again.
      const next = await readShape(
        engine.shapeUrl,
        'table=items&where=n <= $1&params[1]=3',
      )
      expect(factsOf(engine.database, next)?.lastRotation).toEqual({
        at: expect.any(Number),
        cause: 'deleted',
      })
      expect(
        engine.database.invalidationsAfter(0)[0]?.bytesReread,
      ).toBeGreaterThan(0)
    },
  )

  it(
    'keep the rows and creation time across a restart, but not the last read',
    { timeout: 30_000 },
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'sluice-facts-'))
      dirs.push(dataDir)
      const id = uniqueName('facts')
      const first = await engineIn(dataDir, id)
      const handle = await readShape(first.shapeUrl, 'table=notes')
      await source.db.query(`insert into notes values (6, 'six')`)
      await vi.waitFor(
        () => expect(factsOf(first.database, handle)?.rows).toBe(6),
        { timeout: 10_000, interval: 20 },
      )
      const created = factsOf(first.database, handle)?.createdAt
      await first.stop()

      const second = await engineIn(dataDir, id)
      await vi.waitFor(
        () =>
          expect(factsOf(second.database, handle)).toMatchObject({
            rows: 6,
            createdAt: created,
            lastReadAt: null,
          }),
        { timeout: 10_000, interval: 20 },
      )
    },
  )

  it(
    'count a long log from its index after a restart, and an index without counts from the log',
    { timeout: 30_000 },
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'sluice-facts-'))
      dirs.push(dataDir)
      const id = uniqueName('facts')
      const first = await engineIn(dataDir, id)
      const handle = await readShape(first.shapeUrl, 'table=big')
      // Well past the index's 64 KiB step, in several transactions: index points with counts.
      for (let i = 0; i < 4; i++)
        await source.db.query(
          `insert into big select g, repeat('x', 200) from generate_series($1::int, $1::int + 499) g`,
          [i * 500],
        )
      await source.db.query('delete from big where id < 100')
      await vi.waitFor(
        () => expect(factsOf(first.database, handle)?.rows).toBe(1900),
        { timeout: 10_000, interval: 20 },
      )
      const entries = factsOf(first.database, handle)?.logEntries
      await first.stop()
      const index = join(dataDir, 'databases', id, 'shapes', handle)
      const points = (await readFile(join(index, 'index'), 'utf8'))
        .split('\n')
        .filter(Boolean)
      expect(points.length).toBeGreaterThan(1)

      const second = await engineIn(dataDir, id)
      await vi.waitFor(
        () => expect(factsOf(second.database, handle)?.rows).toBe(1900),
        { timeout: 10_000, interval: 20 },
      )
      // Its records too, from the index's last point and what follows it.
      expect(factsOf(second.database, handle)?.logEntries).toBe(entries)
      await second.stop()

      // As an engine before row counts wrote it: offsets and positions only.
      await writeFile(
        join(index, 'index'),
        points.map((line) => `${line.split('\t').slice(0, 2).join('\t')}\n`),
      )
      const third = await engineIn(dataDir, id)
      await vi.waitFor(
        () => expect(factsOf(third.database, handle)?.rows).toBe(1900),
        { timeout: 10_000, interval: 20 },
      )
    },
  )
})
