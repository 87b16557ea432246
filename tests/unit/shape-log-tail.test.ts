// A shape log's in-memory tail: bounded in records and bytes however long the log grows, and
// whatever it dropped is still read, the same, from the file.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it, vi } from 'vitest'
import { FileShapeLog } from '../../src/engine/storage/log-store.ts'
import { LogTail } from '../../src/engine/storage/log-tail.ts'
import { BEFORE_ALL, type Offset } from '../../src/engine/storage/offset.ts'
import { messageText } from '../../src/engine/http/answer-body.ts'

const dirs: string[] = []
/** Reads to the published end: no chunk ends on the way. */
const noCut = () => Infinity
afterEach(() => {
  for (const dir of dirs.splice(0))
    rmSync(dir, { recursive: true, force: true })
})

function logWith(transactions: number, perTx: number, bytes: number) {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-tail-'))
  dirs.push(dir)
  const log = FileShapeLog.create(dir)
  for (let t = 1; t <= transactions; t++) {
    const records = Array.from({ length: perTx }, (_, i) => ({
      offset: { tx: BigInt(t), op: i },
      json: JSON.stringify({ key: `${t}/${i}`, pad: 'x'.repeat(bytes) }),
      last: i === perTx - 1,
    }))
    log.append(records)
    log.publish()
  }
  return { log, dir }
}

const readAll = (log: FileShapeLog, after: Offset) => {
  const messages: string[] = []
  let at = after
  for (;;) {
    const page = log.read(at, 10 * 1024 * 1024)
    messages.push(...page.messages.map(messageText))
    at = page.lastOffset
    if (page.atEnd) return messages
  }
}

it('holds at most 16 KiB of records in memory, however many are appended', () => {
  const { log } = logWith(400, 5, 200)
  const { records, bytes } = log.tailSize
  expect(bytes).toBeLessThanOrEqual(16 * 1024)
  expect(records).toBeGreaterThan(0)
  expect(records).toBeLessThan(2000)
})

it('keeps the newest record even when it alone is past the bound', () => {
  const { log } = logWith(3, 1, 100 * 1024)
  expect(log.tailSize.records).toBe(1)
})

it('reads the same from any offset as a reopened log, which has no tail', async () => {
  const { log, dir } = logWith(300, 4, 300)
  // What a reopened log finds is what was written and synced (log-writer.ts).
  await log.sync()
  const reopened = FileShapeLog.open(dir)
  for (const after of [
    BEFORE_ALL,
    { tx: 1n, op: Infinity },
    { tx: 150n, op: Infinity },
    { tx: 290n, op: Infinity },
    { tx: 299n, op: Infinity },
  ])
    expect(readAll(log, after)).toEqual(readAll(reopened, after))
  expect(readAll(log, { tx: 290n, op: Infinity })).toHaveLength(40)
})

it('reads back from memory exactly the JSON appended, whatever its characters', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-tail-'))
  dirs.push(dir)
  const log = FileShapeLog.create(dir)
  const bodies = [
    'plain',
    'café',
    '日本語',
    'emoji 🚰 and "quotes"',
    '\\ back\tslash',
  ]
  const json = bodies.map((body, i) => JSON.stringify({ key: `k${i}`, body }))
  log.append([
    ...json.map((text, op) => ({
      offset: { tx: 1n, op },
      json: text,
      last: false,
    })),
    // A record without a message (as the snapshot's end is): never read as one.
    { offset: { tx: 1n, op: json.length }, json: '', last: true },
  ])
  log.publish()
  expect(log.tailSize.records).toBe(json.length + 1)
  // Past the first record: read from the tail, not the file.
  for (let op = 0; op < json.length; op++)
    expect(log.read({ tx: 1n, op }, 10 * 1024 * 1024).messages).toEqual(
      json.slice(op + 1),
    )
})

/** Records of ~500 bytes at txs from.., and the lines an append writes for them. */
const lines = (from: number, count: number) => {
  const records = Array.from({ length: count }, (_, i) => ({
    offset: { tx: BigInt(from + i), op: 0 },
    json: JSON.stringify({ key: `${from + i}`, pad: 'x'.repeat(480) }),
    last: true,
  }))
  const text = records.map((r) => `${r.offset.tx}_0\t1\t${r.json}\n`).join('')
  return { records, buffer: Buffer.from(text) }
}

it('shares one budget among every open tail, and a closed one gives its share back', () => {
  const others = Array.from({ length: 2_000 }, () => new LogTail())
  const tail = new LogTail()
  const first = lines(1, 40)
  tail.push(first.records, first.buffer, 0)
  // 16 MiB among 2,001 tails: about 8 KiB each.
  expect(tail.size.bytes).toBeLessThanOrEqual(8_400)
  expect(tail.size.bytes).toBeGreaterThan(4_096)
  for (const other of others) other.release()
  const more = lines(41, 40)
  tail.push(more.records, more.buffer, 0)
  expect(tail.size.bytes).toBeGreaterThan(12 * 1024)
  expect(tail.size.bytes).toBeLessThanOrEqual(16 * 1024)
  tail.release()
})

it('holds only the part of a large append it keeps, not the whole buffer', () => {
  const tail = new LogTail()
  const big = lines(1, 100)
  tail.push(big.records, big.buffer, 0)
  expect(tail.size.capacity).toBeLessThan(big.buffer.length / 2)
  const kept = tail.size.records
  expect(kept).toBeGreaterThan(0)
  expect(
    tail.read({ tx: 0n, op: 0 }, { tx: 100n, op: 0 }, noCut).messages,
  ).toEqual(big.records.slice(-kept).map((r) => r.json))
  tail.release()
})

it('reads exactly what was appended through many small appends, as its buffer fills and its records move', () => {
  const others = Array.from({ length: 10_000 }, () => new LogTail())
  const tail = new LogTail()
  const all: Array<{ offset: Offset; json: string }> = []
  for (let tx = 1; tx <= 3_000; tx++) {
    // Transactions of one to three records of varied sizes; some without a message.
    const records = Array.from({ length: 1 + (tx % 3) }, (_, op) => ({
      offset: { tx: BigInt(tx), op },
      json:
        (tx + op) % 7 === 0
          ? ''
          : JSON.stringify({
              key: `${tx}/${op}`,
              pad: 'é'.repeat((tx * 31 + op) % 300),
            }),
      last: op === tx % 3,
    }))
    const text = records
      .map(
        (r) => `${r.offset.tx}_${r.offset.op}\t${r.last ? 1 : 0}\t${r.json}\n`,
      )
      .join('')
    tail.push(records, Buffer.from(text), 0)
    all.push(...records)
    const held = tail.size.records
    expect(held).toBeGreaterThan(0)
    // Every offset the tail covers reads the records after it, in order.
    const newest = all.at(-1)?.offset as Offset
    for (const back of [1, 2, Math.min(held, 5), held]) {
      const from = all.length - back
      const after = all[from]?.offset as Offset
      const page = tail.read(after, newest, noCut)
      expect(page.messages).toEqual(
        all.slice(from + 1).flatMap((r) => (r.json ? [r.json] : [])),
      )
      expect(page.lastOffset).toEqual(newest)
      expect(page.atEnd).toBe(true)
    }
  }
  // 16 MiB among 10,001 tails is below the floor of 2 KiB each; the buffer is not much larger.
  expect(tail.size.bytes).toBeLessThanOrEqual(2 * 1024)
  expect(tail.size.capacity).toBeLessThanOrEqual(8 * 1024)
  for (const other of others) other.release()
  tail.release()
})

it('holds no gap: after a large append keeps only its newest records, a reader before them reads every record from the file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-tail-'))
  dirs.push(dir)
  const log = FileShapeLog.create(dir)
  // The snapshot's end: a record without bytes, which the share never pushes out.
  log.append([{ offset: { tx: 0n, op: Infinity }, json: '', last: true }])
  log.publish()
  const records = Array.from({ length: 400 }, (_, op) => ({
    offset: { tx: 100n, op },
    json: JSON.stringify({ key: `k${op}`, pad: 'x'.repeat(200) }),
    last: op === 399,
  }))
  log.append(records)
  log.publish()
  expect(log.tailSize.records).toBeLessThan(400)
  expect(readAll(log, { tx: 0n, op: Infinity })).toEqual(
    records.map((r) => r.json),
  )
})

it('answers a client at the end of a snapshot chunk from memory when it holds what follows, as the file would', async () => {
  const fromTail = vi.spyOn(LogTail.prototype, 'readFrom')
  try {
    // A snapshot of one chunk (its client waits at 0_0), and one of many whose early chunks
    // the tail no longer holds.
    for (const rows of [5, 1_000]) {
      const dir = mkdtempSync(join(tmpdir(), 'sluice-tail-'))
      dirs.push(dir)
      const log = FileShapeLog.create(dir)
      log.appendSnapshotRows(
        Array.from({ length: rows }, (_, op) => ({
          offset: { tx: 0n, op },
          json: JSON.stringify({
            key: `s${op}`,
            pad: 'x'.repeat(100 + (op % 7) * 30),
          }),
          last: true,
        })),
      )
      log.appendSnapshotEnd('{"headers":{"control":"snapshot-end"}}')
      for (let t = 1; t <= 4; t++)
        log.append(
          [0, 1].map((op) => ({
            offset: { tx: BigInt(t), op },
            json: JSON.stringify({ key: `t${t}/${op}` }),
            last: op === 1,
          })),
          2,
        )
      log.publish()
      await log.sync()
      const reopened = FileShapeLog.open(dir)
      const threshold = 10_000
      let at: Offset = BEFORE_ALL
      for (;;) {
        const page = log.read(at, threshold)
        const fromFile = reopened.read(at, threshold)
        expect({ ...page, messages: page.messages.map(messageText) }).toEqual({
          ...fromFile,
          messages: fromFile.messages.map(messageText),
        })
        if (page.atEnd) break
        at = page.lastOffset
      }
      reopened.close()
      log.close()
    }
    // The one-chunk snapshot's client, at 0_0, was answered from memory.
    expect(fromTail).toHaveBeenCalled()
    expect(
      fromTail.mock.results.some(
        (r) => (r.value as { messages: string[] }).messages.length > 0,
      ),
    ).toBe(true)
  } finally {
    fromTail.mockRestore()
  }
})
