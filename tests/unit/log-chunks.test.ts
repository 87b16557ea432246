// Log chunks (storage/chunks.ts): answers end within a fifth of any threshold from 10 kB up, the
// snapshot's end ends one, a transaction larger than the threshold is cut inside it, and a reader
// resuming from any offset inside a chunk is cut where a reader from the start was.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { FileShapeLog } from '../../src/engine/storage/log-store.ts'
import {
  BEFORE_ALL,
  compareOffsets,
  type Offset,
} from '../../src/engine/storage/offset.ts'
import { messageText } from '../../src/engine/http/answer-body.ts'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0))
    rmSync(dir, { recursive: true, force: true })
})

function newLog(): { log: FileShapeLog; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-chunks-'))
  dirs.push(dir)
  return { log: FileShapeLog.create(dir), dir }
}

/** A message of about `size` bytes, varied so cuts never line up by chance. */
const message = (key: string, size: number) =>
  JSON.stringify({
    key,
    value: { pad: 'x'.repeat(size) },
    headers: { operation: 'insert' },
  })

/** A snapshot of `rows` rows, then `txs` transactions of 1-4 records, all published. */
function fill(log: FileShapeLog, rows: number, txs: number) {
  log.appendSnapshotRows(
    Array.from({ length: rows }, (_, i) => ({
      offset: { tx: 0n, op: i },
      json: message(`s${i}`, 100 + ((i * 37) % 300)),
      last: true,
    })),
  )
  log.appendSnapshotEnd('{"headers":{"control":"snapshot-end"}}')
  for (let t = 0; t < txs; t++) {
    const count = 1 + (t % 4)
    log.append(
      Array.from({ length: count }, (_, op) => ({
        offset: { tx: BigInt(1000 + t), op },
        json: message(`t${t}/${op}`, 50 + ((t * 53 + op * 11) % 250)),
        last: op === count - 1,
      })),
      count,
    )
  }
  log.publish()
}

type Page = { bytes: number; end: Offset; messages: string[] }

/** Every answer from `after` on, as a client takes them. */
function pages(log: FileShapeLog, after: Offset, threshold: number): Page[] {
  const out: Page[] = []
  let at = after
  for (let i = 0; i < 100_000; i++) {
    const page = log.read(at, threshold)
    // The body a client receives: the messages as a JSON array.
    const messages = page.messages.map(messageText)
    const bytes = Buffer.byteLength(`[${messages.join(',')}]`)
    out.push({ bytes, end: page.lastOffset, messages })
    at = page.lastOffset
    if (page.atEnd) return out
  }
  throw new Error('never reached the end')
}

describe.each([10_000, 64 * 1024])(
  'at a threshold of %i bytes',
  (threshold) => {
    it('ends every answer within a fifth of it, and the snapshot apart from the log', () => {
      const { log } = newLog()
      fill(log, 3_000, 6_000)
      const all = pages(log, BEFORE_ALL, threshold)
      const snapshotEnd = all.findIndex((p) => p.end.tx > 0n) - 1
      expect(snapshotEnd).toBeGreaterThan(2)
      // The snapshot's last answer ends with its end; the next holds only transactions.
      expect(all[snapshotEnd]?.messages.at(-1)).toContain('snapshot-end')
      const full = all.filter(
        (_, i) => i !== snapshotEnd && i !== all.length - 1,
      )
      expect(full.length).toBeGreaterThan(10)
      for (const page of full) {
        expect(page.bytes).toBeGreaterThan(threshold * 0.8)
        expect(page.bytes).toBeLessThan(threshold * 1.2)
      }
    })

    it('cuts a reader resuming from any offset inside a chunk where a reader from the start was', () => {
      const { log } = newLog()
      fill(log, 0, 3_000)
      const ends = pages(log, BEFORE_ALL, threshold).map((p) => p.end)
      // Every transaction end is an offset some client may hold.
      for (let t = 0; t < 3_000; t += 7) {
        const after: Offset = { tx: BigInt(1000 + t), op: t % 4 }
        const end = log.read(after, threshold).lastOffset
        const expected = ends.find((e) => compareOffsets(e, after) > 0)
        expect(end).toEqual(expected)
      }
    })
  },
)

it('ends every answer within a fifth of a 10 MiB threshold, after a ramp from 80 KiB in the snapshot', () => {
  const { log } = newLog()
  const threshold = 10 * 1024 * 1024
  // About 35 MB of snapshot rows: the ramp, two full answers and a part.
  fill(log, 100_000, 0)
  const all = pages(log, BEFORE_ALL, threshold)
  // The ramp's answers end at the threshold over 128, 64, ..., 2: the first is a few hundred
  // rows, the next each as large as all before it.
  const expected = [128, 128, 64, 32, 16, 8, 4, 2, 1, 1].map(
    (d) => threshold / d,
  )
  expect(all.length).toBeGreaterThan(expected.length)
  expected.forEach((size, i) => {
    expect(all[i]?.bytes).toBeGreaterThan(size * 0.8)
    expect(all[i]?.bytes).toBeLessThan(size * 1.2)
  })
  expect(all.map((p) => p.end.op).slice(0, 11)).toEqual([
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
  ])
})

it('cuts a transaction larger than the threshold inside it, past its first record, as Electric does', () => {
  const { log } = newLog()
  fill(log, 10, 0)
  const big = Array.from({ length: 200 }, (_, op) => ({
    offset: { tx: 5000n, op },
    json: message(`big/${op}`, 200),
    last: op === 199,
  }))
  log.append(big, 200)
  log.publish()
  const all = pages(log, BEFORE_ALL, 10_000)
  const inBig = all.filter((p) => p.end.tx === 5000n)
  expect(inBig.length).toBeGreaterThan(3)
  for (const page of inBig.slice(0, -1)) {
    expect(page.end.op).toBeGreaterThan(0)
    expect(page.bytes).toBeGreaterThan(10_000 * 0.8)
    expect(page.bytes).toBeLessThan(10_000 * 1.2)
  }
  // Read on from each cut, every record once, in order.
  expect(inBig.flatMap((p) => p.messages)).toEqual(big.map((r) => r.json))
})

it('cuts a reopened log as before', async () => {
  const { log, dir } = newLog()
  fill(log, 1_000, 2_000)
  const before = pages(log, BEFORE_ALL, 10_000).map((p) => p.end)
  await log.sync()
  log.close()
  const reopened = FileShapeLog.open(dir)
  expect(pages(reopened, BEFORE_ALL, 10_000).map((p) => p.end)).toEqual(before)
  reopened.close()
})

describe('snapshot offsets, numbered as Electric numbers them', () => {
  it('ends a snapshot of one chunk at 0_0, and goes on from there with the log', () => {
    const { log } = newLog()
    fill(log, 5, 3)
    const first = log.read(BEFORE_ALL, 10_000)
    expect(first.lastOffset).toEqual({ tx: 0n, op: 0 })
    expect(first.messages).toHaveLength(6)
    expect(log.caughtUp(first.lastOffset, 10_000)).toBe(false)
    const rest = log.read(first.lastOffset, 10_000)
    expect(rest.messages).toHaveLength(1 + 2 + 3)
    expect(rest.lastOffset).toEqual({ tx: 1002n, op: 2 })
    expect(rest.atEnd).toBe(true)
  })

  it('numbers the chunks 0_0, 0_1, .. and resumes after each', () => {
    const { log } = newLog()
    fill(log, 1_000, 0)
    const all = pages(log, BEFORE_ALL, 10_000)
    expect(log.tipOffset(10_000)).toEqual(all.at(-1)?.end)
    expect(all.map((p) => p.end)).toEqual(
      all.map((_, i) => ({ tx: 0n, op: i })),
    )
    expect(all.flatMap((p) => p.messages)).toHaveLength(1_001)
    // Read again from any chunk's number, the same answers follow.
    const again = pages(log, { tx: 0n, op: 3 }, 10_000)
    expect(again).toEqual(all.slice(4))
  })

  it('names the tip as the last answer does, also with rows larger than the threshold', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const { log } = newLog()
      log.appendSnapshotRows(
        Array.from({ length: 40 + seed }, (_, i) => ({
          offset: { tx: 0n, op: i },
          // Mostly small; every few rows one of up to 2.5 thresholds.
          json: message(
            `s${i}`,
            (i * seed * 7919) % 5 === 0 ? (i * seed * 131) % 25_000 : 300,
          ),
          last: true,
        })),
      )
      log.appendSnapshotEnd('{"headers":{"control":"snapshot-end"}}')
      log.publish()
      const all = pages(log, BEFORE_ALL, 10_000)
      expect(log.tipOffset(10_000)).toEqual(all.at(-1)?.end)
      expect(all.flatMap((p) => p.messages)).toHaveLength(40 + seed + 1)
      for (const [i, page] of all.slice(0, -1).entries())
        expect(pages(log, page.end, 10_000)).toEqual(all.slice(i + 1))
      log.close()
    }
  })

  it('says a reader at the snapshot end has read everything, until the log has more', () => {
    const { log } = newLog()
    fill(log, 100, 0)
    const all = pages(log, BEFORE_ALL, 10_000)
    const end = all.at(-1)?.end as Offset
    expect(end.op).toBeGreaterThan(1)
    expect(log.tipOffset(10_000)).toEqual(end)
    expect(log.caughtUp(end, 10_000)).toBe(true)
    expect(log.caughtUp({ tx: 0n, op: end.op - 1 }, 10_000)).toBe(false)
    expect(log.caughtUp({ tx: 0n, op: Infinity }, 10_000)).toBe(true)
    log.append(
      [{ offset: { tx: 9n, op: 0 }, json: message('x', 10), last: true }],
      1,
    )
    log.publish()
    expect(log.caughtUp(end, 10_000)).toBe(false)
    expect(log.read(end, 10_000).lastOffset).toEqual({ tx: 9n, op: 0 })
    expect(log.tipOffset(10_000)).toEqual({ tx: 9n, op: 0 })
  })

  it('keeps 0_inf, what clients of a log without changes held before, past the snapshot', () => {
    const { log } = newLog()
    fill(log, 100, 2)
    const page = log.read({ tx: 0n, op: Infinity }, 10_000)
    expect(page.messages).toHaveLength(1 + 2)
    expect(page.lastOffset).toEqual({ tx: 1001n, op: 1 })
  })

  it('numbers a reopened log as before: offsets handed out stay good across a restart', async () => {
    const { log, dir } = newLog()
    fill(log, 1_000, 100)
    const before = pages(log, BEFORE_ALL, 10_000)
    await log.sync()
    log.close()
    const reopened = FileShapeLog.open(dir)
    expect(pages(reopened, BEFORE_ALL, 10_000)).toEqual(before)
    expect(pages(reopened, { tx: 0n, op: 2 }, 10_000)).toEqual(before.slice(3))
    reopened.close()
  })
})

describe('a snapshot read while it is appended', () => {
  const THRESHOLD = 10_000
  const rows = Array.from({ length: 400 }, (_, i) => ({
    offset: { tx: 0n, op: i },
    json: message(`s${i}`, 100 + ((i * 37) % 300)),
    last: true,
  }))

  it('answers each chunk once every row of it is appended, as read() answers it later', () => {
    const { log } = newLog()
    const early: { after: Offset; messages: string[]; end: Offset }[] = []
    let after: Offset = BEFORE_ALL
    let appended = 0
    // Appended in batches, as the snapshot's cursor hands them over; a reader follows.
    while (appended < rows.length) {
      const batch = rows.slice(appended, appended + 30)
      log.appendSnapshotRows(batch)
      appended += batch.length
      for (;;) {
        const page = log.readSnapshotSoFar(after, THRESHOLD)
        if (!page) break
        expect(page.atEnd).toBe(false)
        early.push({
          after,
          messages: page.messages.map(messageText),
          end: page.lastOffset,
        })
        after = page.lastOffset
      }
    }
    // Never the chunk that holds the last rows: its end is the snapshot's end, unknown yet.
    expect(early.length).toBeGreaterThan(5)
    expect(log.readSnapshotSoFar(after, THRESHOLD)).toBeNull()
    log.appendSnapshotEnd('{"headers":{"control":"snapshot-end"}}')
    log.publish()
    // Complete: read() answers, and answers every chunk as it was answered early.
    expect(log.readSnapshotSoFar(BEFORE_ALL, THRESHOLD)).toBeNull()
    for (const { after: from, messages, end } of early) {
      const page = log.read(from, THRESHOLD)
      expect(page.messages.map(messageText)).toEqual(messages)
      expect(page.lastOffset).toEqual(end)
    }
    // And the rest follows from where the early reader stopped, every row once.
    const rest = log.read(after, THRESHOLD)
    const seen = [
      ...early.flatMap((p) => p.messages),
      ...rest.messages.map(messageText),
    ]
    expect(seen.slice(0, rows.length)).toEqual(rows.map((r) => r.json))
  })

  it('answers nothing for an offset past the snapshot, nor before a chunk is full', () => {
    const { log } = newLog()
    log.appendSnapshotRows(rows.slice(0, 10))
    expect(log.readSnapshotSoFar(BEFORE_ALL, THRESHOLD)).toBeNull()
    expect(log.readSnapshotSoFar({ tx: 5n, op: 0 }, THRESHOLD)).toBeNull()
  })

  it('waits for the chunk after a row larger than the threshold to fill, too', () => {
    const { log } = newLog()
    const row = (op: number, size: number) => ({
      offset: { tx: 0n, op },
      json: message(`s${op}`, size),
      last: true,
    })
    // Chunk 0 ends with a 30 kB row; the next starts past 30 kB, in the fourth bucket.
    log.appendSnapshotRows([row(0, 5_000), row(1, 30_000), row(2, 100)])
    const first = log.readSnapshotSoFar(BEFORE_ALL, THRESHOLD)
    expect(first?.messages).toHaveLength(2)
    expect(log.readSnapshotSoFar(first!.lastOffset, THRESHOLD)).toBeNull()
  })
})
