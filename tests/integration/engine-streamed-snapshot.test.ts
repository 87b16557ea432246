// A snapshot is answered chunk by chunk while Postgres still sends it (shapes/snapshot.ts,
// storage/log-store.ts readSnapshotSoFar): a client's first answer arrives before the snapshot
// is complete, and rows written meanwhile (inserts, updates and deletes, of rows the snapshot
// has read and of rows it has not yet) reach the official client exactly once.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'
import { waitUntil } from '../support/wait.ts'
import { compare, explain, follow, truthOf } from '../faults/support.ts'

const ROWS = 200_000
const COLUMNS = ['id', 'body']
let source: TestDatabase
let engine: TestEngine

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(
    `create table big (id int primary key, body text);
     insert into big select i, 'row ' || i || ' ' || md5(i::text)
       from generate_series(1, ${ROWS}) as i`,
  )
  // Many chunks, so most of them are answered while the snapshot is read.
  engine = await startTestEngine(source.url, { chunkBytes: 64 * 1024 })
}, 60_000)

afterAll(async () => {
  await engine?.destroy()
  await source?.drop()
})

it("answers a snapshot's first chunk before the snapshot is complete", async () => {
  const response = await fetch(`${engine.shapeUrl}?table=big&offset=-1`)
  const handle = response.headers.get('electric-handle') ?? ''
  // The answer is in; is the snapshot?
  const complete = engine.database.byHandle(handle)?.ready
  const messages = (await response.json()) as unknown[]
  expect(response.status).toBe(200)
  expect(complete).toBe(false)
  expect(response.headers.get('electric-offset')).toBe('0_0')
  expect(response.headers.get('electric-up-to-date')).toBeNull()
  expect(messages.length).toBeGreaterThan(100)
  expect(messages.length).toBeLessThan(ROWS / 10)
}, 60_000)

it('gives the official client every row once, with the writes made while it was read', async () => {
  const follower = follow(engine.shapeUrl, 'big', 'id > 0')
  try {
    // Writes as the snapshot is read: to rows at its start (read already), at its end (not
    // yet), and new ones, until the client is up to date.
    let n = 0
    let writing = true
    const writes = (async () => {
      while (writing) {
        n++
        await source.db.query(
          `begin;
           update big set body = 'early ' || $1::int where id = $1::int;
           update big set body = 'late ' || $1::int where id = ${ROWS} - $1::int;
           delete from big where id = ${ROWS} / 2 + $1::int;
           insert into big values (${ROWS} + $1::int, 'new ' || $1::int);
           commit`.replace(/\$1::int/g, String(n)),
        )
      }
    })()
    await waitUntil(
      'the client to hold the snapshot',
      () => follower.rows.size >= ROWS - n,
      60_000,
    ).catch(explain(follower))
    writing = false
    await writes
    expect(n).toBeGreaterThan(0)
    const truth = await truthOf(source.db, 'big', COLUMNS)
    await waitUntil(
      'the client to match the table',
      () => compare(follower, truth, COLUMNS).same,
      60_000,
    ).catch(explain(follower))
    expect(compare(follower, truth, COLUMNS)).toEqual({
      lost: 0,
      duplicated: 0,
      same: true,
    })
    expect(follower.refetches).toBe(0)
  } finally {
    follower.stop()
  }
}, 120_000)

it('reads one snapshot for ten clients asking for a new shape at once, and none for those joining it', async () => {
  const where = `id <= ${ROWS / 10}`
  const truth = await truthOf(source.db, 'big', COLUMNS, where)
  const read = async (clients: number) => {
    const followers = Array.from({ length: clients }, () =>
      follow(engine.shapeUrl, 'big', where),
    )
    try {
      for (const follower of followers)
        await waitUntil(
          'every client to hold the shape',
          () => compare(follower, truth, COLUMNS).same,
          60_000,
        ).catch(explain(follower))
      return followers.map((f) => f.handles)
    } finally {
      for (const follower of followers) follower.stop()
    }
  }
  const askedAt = Date.now()
  const asked = await read(10)
  expect(engine.database.snapshotsAfter(askedAt)).toHaveLength(1)
  const joinedAt = Date.now()
  const joined = await read(10)
  expect(engine.database.snapshotsAfter(joinedAt)).toHaveLength(0)
  // One shape for them all.
  expect(new Set([...asked, ...joined].flat()).size).toBe(1)
}, 120_000)
