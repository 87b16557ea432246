// Log compaction (storage/compaction.ts, compactor.ts): once a log grows far past what a new
// client reads, a new client reads about its rows, not their history, and a client that read
// part of the log before the compaction goes on from its offset to the same rows.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it, vi } from 'vitest'
import { FileShapeLog } from '../../src/engine/storage/log-store.ts'
import { BEFORE_ALL, type Offset } from '../../src/engine/storage/offset.ts'
import { messageText } from '../../src/engine/http/answer-body.ts'

const dirs: string[] = []
/** Compactions run in the background, one at a time: a loaded machine may take a while. */
const WAIT = { timeout: 20_000, interval: 20 }
afterEach(() => {
  for (const dir of dirs.splice(0))
    rmSync(dir, { recursive: true, force: true })
})

function newLog(): { log: FileShapeLog; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-compact-'))
  dirs.push(dir)
  return { log: FileShapeLog.create(dir), dir }
}

type Message = {
  key?: string
  value?: Record<string, unknown>
  headers: { operation?: string }
}
type Rows = Map<string, Record<string, unknown>>

/** What a client does with messages (the official client's Shape). */
function apply(rows: Rows, messages: string[]): number {
  let data = 0
  for (const json of messages) {
    const m = JSON.parse(json) as Message
    if (!m.key) continue
    data++
    if (m.headers.operation === 'insert') rows.set(m.key, { ...m.value })
    else if (m.headers.operation === 'update')
      rows.set(m.key, { ...rows.get(m.key), ...m.value })
    else if (m.headers.operation === 'delete') rows.delete(m.key)
  }
  return data
}

/** Reads from `after` to the end; the data messages read. */
function readAll(log: FileShapeLog, rows: Rows, after: Offset): number {
  let at = after
  let data = 0
  for (let i = 0; i < 100_000; i++) {
    const page = log.read(at, 10_000)
    data += apply(rows, page.messages.map(messageText))
    at = page.lastOffset
    if (page.atEnd) return data
  }
  throw new Error('never reached the end')
}

const op = (operation: string, key: number, value: Record<string, unknown>) =>
  JSON.stringify({ key: `k${key}`, value, headers: { operation } })

function snapshot(log: FileShapeLog, rows: number) {
  log.appendSnapshotRows(
    Array.from({ length: rows }, (_, i) => ({
      offset: { tx: 0n, op: i },
      json: op('insert', i, { id: i, a: 'a'.repeat(100), b: 0, c: 0 }),
      last: true,
    })),
  )
  log.appendSnapshotEnd('{"headers":{"control":"snapshot-end"}}')
  log.publish()
}

/** Every message committed, in order: the history a client that never paused reads. */
const history: string[] = []

/** Transaction `tx`: its messages, each a record. */
function commit(log: FileShapeLog, tx: number, messages: string[]) {
  history.push(...messages)
  log.append(
    messages.map((json, i) => ({
      offset: { tx: BigInt(tx), op: i * 2 },
      json,
      last: i === messages.length - 1,
    })),
  )
  log.publish()
}

const compacted = (dir: string) =>
  readdirSync(dir).some((name) => /^compacted\.\d+$/.test(name))

it('lets a client that joins after 10,000 updates of one row read about the rows, not the history', async () => {
  const { log, dir } = newLog()
  snapshot(log, 1_000)
  for (let i = 1; i <= 10_000; i++)
    commit(log, 100 + i, [
      op('update', 7, { b: i, ...(i % 3 ? {} : { c: i }) }),
    ])
  await vi.waitFor(() => expect(compacted(dir)).toBe(true), WAIT)
  const rows = new Map() as Rows
  await vi.waitFor(() => {
    rows.clear()
    expect(readAll(log, rows, BEFORE_ALL)).toBeLessThanOrEqual(2 * 1_000)
  }, WAIT)
  expect(rows.size).toBe(1_000)
  expect(rows.get('k7')).toEqual({
    id: 7,
    a: 'a'.repeat(100),
    b: 10_000,
    c: 9_999,
  })
  log.close()
}, 30_000)

it('takes a client that read part of the log before the compaction to the same rows', async () => {
  const { log, dir } = newLog()
  history.length = 0
  snapshot(log, 200)
  // Inserts, updates of many keys (some columns at a time), deletes and inserts again, in
  // transactions of one to three changes.
  let tx = 100
  let next = 200
  for (let i = 0; i < 3_000; i++) {
    const key = (i * 7919) % 250
    const messages =
      i % 50 === 0
        ? [op('insert', next++, { id: next, a: 'x', b: i, c: 0 })]
        : i % 97 === 0
          ? [
              op('delete', key, {}),
              op('insert', key, { id: key, a: 'y', b: i, c: i }),
            ]
          : [
              op('update', key, { b: i }),
              op('update', (key + 1) % 200, { c: i }),
            ]
    commit(log, tx++, messages)
  }
  // Clients part way: at offsets they were handed before any compaction.
  const holders = [0, 3, 17, 60].map(() => ({
    rows: new Map() as Rows,
    at: BEFORE_ALL,
  }))
  for (const [n, holder] of holders.entries()) {
    for (let pages = 0; pages < 5 + n * 20; pages++) {
      const page = log.read(holder.at, 10_000)
      apply(holder.rows, page.messages.map(messageText))
      holder.at = page.lastOffset
      if (page.atEnd) break
    }
  }
  expect(holders.filter((h) => h.at.tx > 0n).length).toBeGreaterThan(1)
  for (let i = 0; i < 500; i++)
    commit(log, tx++, [op('update', i % 200, { a: `z${i}` })])
  await vi.waitFor(() => expect(compacted(dir)).toBe(true), WAIT)
  // The snapshot and every change after it: the rows now.
  const truth = new Map() as Rows
  apply(
    truth,
    Array.from({ length: 200 }, (_, i) =>
      op('insert', i, { id: i, a: 'a'.repeat(100), b: 0, c: 0 }),
    ),
  )
  apply(truth, history)
  expect(truth.size).toBeGreaterThan(200)
  for (const holder of holders) {
    readAll(log, holder.rows, holder.at)
    expect(holder.rows).toEqual(truth)
  }
  const late = new Map() as Rows
  readAll(log, late, BEFORE_ALL)
  expect(late).toEqual(truth)
  log.close()
}, 30_000)

it('compacts a reopened log again, without waiting for a change', async () => {
  const { log, dir } = newLog()
  snapshot(log, 1_000)
  for (let i = 1; i <= 2_000; i++)
    commit(log, 100 + i, [op('update', 3, { b: i })])
  await vi.waitFor(() => expect(compacted(dir)).toBe(true), WAIT)
  await log.sync()
  log.close()
  const reopened = FileShapeLog.open(dir)
  await vi.waitFor(() => expect(compacted(dir)).toBe(true), WAIT)
  const rows = new Map() as Rows
  expect(readAll(reopened, rows, BEFORE_ALL)).toBeLessThanOrEqual(2 * 1_000)
  expect(rows.get('k3')).toEqual({ id: 3, a: 'a'.repeat(100), b: 2_000, c: 0 })
  reopened.close()
}, 30_000)

it('answers a reader in the span compacted up to the published end when it fits in its chunk, as the log does', async () => {
  const { log, dir } = newLog()
  snapshot(log, 100)
  for (let i = 1; i <= 2_000; i++)
    commit(log, 100 + i, [op('update', i % 100, { b: i, a: 'b'.repeat(50) })])
  await vi.waitFor(() => expect(compacted(dir)).toBe(true), WAIT)
  // Published after the segment was made: the segment ends before them.
  for (let i = 1; i <= 3; i++)
    commit(log, 10_000 + i, [op('update', 1, { c: i })])
  const chunk = 10 * 1024 * 1024
  // A live reader up to date before the compaction, and one going on at the snapshot's end.
  for (const after of [
    { tx: 1_100n, op: Infinity },
    log.read(BEFORE_ALL, chunk).lastOffset,
  ]) {
    const page = log.read(after, chunk)
    expect(page.atEnd).toBe(true)
    expect(page.lastOffset).toEqual(log.lastOffset)
    const rows = new Map() as Rows
    apply(rows, page.messages.map(messageText))
    expect(rows.get('k1')).toMatchObject({ b: 1_901, c: 3 })
  }
  // A small chunk still ends there, and reading on reaches the same rows.
  const rows = new Map() as Rows
  readAll(log, rows, { tx: 1_100n, op: Infinity })
  expect(rows.get('k1')).toMatchObject({ b: 1_901, c: 3 })
  log.close()
}, 30_000)
