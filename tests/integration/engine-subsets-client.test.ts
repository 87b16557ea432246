// The official client in changes-only mode against the engine: it sees only later changes,
// loads subsets with requestSnapshot / fetchSnapshot (GET and POST), then follows the live
// changes to them without duplicates, and resumes without loss after a forced refresh.
import {
  isChangeMessage,
  ShapeStream,
  type ChangeMessage,
  type Message,
  type Row,
} from '@electric-sql/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'

let source: TestDatabase
let engine: TestEngine
const aborters: AbortController[] = []

beforeAll(async () => {
  source = await createTestDatabase()
  engine = await startTestEngine(source.url)
}, 60_000)

afterAll(async () => {
  for (const a of aborters) a.abort()
  await engine?.destroy()
  await source?.drop()
})

/** A changes-only stream of `table`, and every change message it delivered, in order. */
function follow(table: string, extra: object = {}) {
  const aborter = new AbortController()
  aborters.push(aborter)
  const stream = new ShapeStream<Row>({
    url: engine.shapeUrl,
    params: { table },
    log: 'changes_only',
    signal: aborter.signal,
    ...extra,
  })
  const changes: ChangeMessage<Row>[] = []
  stream.subscribe((batch: Message<Row>[]) => {
    for (const m of batch) if (isChangeMessage(m)) changes.push(m)
  })
  /** The rows the messages add up to, by id. */
  const rows = () => {
    const byId = new Map<number, Row>()
    for (const m of changes) {
      const id = Number(m.value.id)
      if (m.headers.operation === 'delete') byId.delete(id)
      else byId.set(id, { ...byId.get(id), ...m.value })
    }
    return [...byId.values()].sort((a, b) => Number(a.id) - Number(b.id))
  }
  const ops = () =>
    changes.map((m) => [m.headers.operation, Number(m.value.id)] as const)
  return { stream, changes, rows, ops }
}

describe('changes_only with the official client', () => {
  it('starts with no rows and gets only the changes made after it started', async () => {
    await source.db.query(`
      create table later (id int primary key, title text);
      insert into later values (1, 'old'), (2, 'old')`)
    const { stream, ops } = follow('later')
    await expect.poll(() => stream.isUpToDate).toBe(true)
    await source.db.query(`insert into later values (3, 'new')`)
    await source.db.query(`update later set title = 'changed' where id = 1`)
    await expect.poll(ops).toEqual([
      ['insert', 3],
      ['update', 1],
    ])
  })

  it('loads subsets with requestSnapshot (GET and POST), then follows them live without duplicates', async () => {
    await source.db.query(`
      create table board (id int primary key, team text, rank int, title text);
      insert into board select i, case when i % 2 = 0 then 'a' else 'b' end, i, 't' || i
        from generate_series(1, 20) i`)
    const { stream, rows, ops } = follow('board')
    await expect.poll(() => stream.isUpToDate).toBe(true)
    // The top three of team a by rank, from the live stream's own position.
    await stream.requestSnapshot({
      where: 'team = $1',
      params: { '1': 'a' },
      orderBy: 'rank desc',
      limit: 3,
    })
    expect(rows().map((r) => r.id)).toEqual([16, 18, 20])
    expect(
      rows().every((r) => r.team === 'a' && r.title === `t${String(r.id)}`),
    ).toBe(true)
    await stream.requestSnapshot({
      where: 'rank < $1',
      params: { '1': '3' },
      orderBy: 'rank',
      limit: 10,
      method: 'POST',
    })
    expect(rows().map((r) => r.id)).toEqual([1, 2, 16, 18, 20])
    // A change racing the snapshot: committed before it is read, it is in the snapshot, and
    // the log's copy of it must not be applied a second time.
    const racing = source.db.query(
      `update board set title = 'raced' where id = 4`,
    )
    await stream.requestSnapshot({ where: 'id = 4' })
    await racing
    await source.db.query(`update board set title = 'moved' where id = 18`)
    await source.db.query(`delete from board where id = 16`)
    await expect
      .poll(() => rows().map((r) => [r.id, r.title]))
      .toEqual([
        [1, 't1'],
        [2, 't2'],
        [4, 'raced'],
        [18, 'moved'],
        [20, 't20'],
      ])
    // Each row arrived once from its snapshot; id 4's update at most once more (if its
    // transaction committed after the snapshot was taken). Which interleaving happened is up
    // to timing: engine-subsets.test.ts checks the metadata this dedupe relies on.
    const inserts = ops().filter(([op]) => op === 'insert')
    expect(inserts.map(([, id]) => id).sort((a, b) => a - b)).toEqual([
      1, 2, 4, 16, 18, 20,
    ])
    expect(
      ops().filter(([op, id]) => op === 'update' && id === 4).length,
    ).toBeLessThanOrEqual(1)
  })

  it('moves rows in and out of a where clause after their subset was loaded', async () => {
    await source.db.query(`
      create table moving (id int primary key, status text not null);
      insert into moving values (1, 'open'), (2, 'open'), (3, 'closed')`)
    const { stream, rows, ops } = follow('moving', {
      params: { table: 'moving', where: 'status = $1', params: ['open'] },
    })
    await expect.poll(() => stream.isUpToDate).toBe(true)
    await stream.requestSnapshot({ where: 'id <= $1', params: { '1': '2' } })
    expect(rows().map((r) => r.id)).toEqual([1, 2])
    await source.db.query(`update moving set status = 'closed' where id = 1`)
    await source.db.query(`update moving set status = 'open' where id = 3`)
    await expect
      .poll(() => rows().map((r) => [r.id, r.status]))
      .toEqual([
        [2, 'open'],
        [3, 'open'],
      ])
    expect(ops().slice(-2)).toEqual([
      ['delete', 1],
      ['insert', 3],
    ])
  })

  it('fetchSnapshot returns the rows and metadata without injecting them', async () => {
    await source.db.query(`
      create table peek (id int primary key, n int);
      insert into peek select i, i * 10 from generate_series(1, 5) i`)
    const { stream, changes } = follow('peek')
    await expect.poll(() => stream.isUpToDate).toBe(true)
    const { metadata, data } = await stream.fetchSnapshot({
      where: 'n > $1',
      params: { '1': '20' },
      orderBy: 'n desc',
      limit: 2,
      offset: 1,
    })
    expect(data.map((m) => m.value)).toEqual([
      { id: 4, n: 40 },
      { id: 3, n: 30 },
    ])
    expect(
      data.every((m) => m.headers.snapshot_mark === metadata.snapshot_mark),
    ).toBe(true)
    expect(BigInt(metadata.xmax)).toBeGreaterThanOrEqual(BigInt(metadata.xmin))
    expect(changes).toEqual([])
  })

  it('resumes without loss after forceDisconnectAndRefresh', async () => {
    await source.db.query(`create table refreshed (id int primary key)`)
    const { stream, ops } = follow('refreshed')
    await expect.poll(() => stream.isUpToDate).toBe(true)
    await source.db.query(`insert into refreshed values (1)`)
    await expect.poll(ops).toEqual([['insert', 1]])
    const refreshing = stream.forceDisconnectAndRefresh()
    await source.db.query(`insert into refreshed values (2)`)
    await refreshing
    await source.db.query(`insert into refreshed values (3)`)
    await expect.poll(ops).toEqual([
      ['insert', 1],
      ['insert', 2],
      ['insert', 3],
    ])
  })
})
