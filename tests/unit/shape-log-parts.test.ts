// A transaction appended to a shape log in parts (a spilled one): readers are answered chunk by
// chunk inside it, and a log reopened with only some of its parts on file is cut back to the
// last whole transaction, its index too, and goes on from there.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { FileShapeLog } from '../../src/engine/storage/log-store.ts'
import { BEFORE_ALL, type Offset } from '../../src/engine/storage/offset.ts'
import { messageText } from '../../src/engine/http/answer-body.ts'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0))
    rmSync(dir, { recursive: true, force: true })
})

function newLog(): { log: FileShapeLog; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-parts-'))
  dirs.push(dir)
  return { log: FileShapeLog.create(dir), dir }
}

const record = (tx: number, op: number, last = false) => ({
  offset: { tx: BigInt(tx), op },
  json: JSON.stringify({
    key: `${tx}/${op}`,
    value: { pad: 'x'.repeat(500) },
    headers: { operation: 'insert' },
  }),
  last,
})

/** Transaction `tx` of `parts` parts of `per` records, its last record marked only if `whole`. */
function appendInParts(
  log: FileShapeLog,
  tx: number,
  parts: number,
  per: number,
  whole: boolean,
) {
  for (let p = 0; p < parts; p++)
    log.append(
      Array.from({ length: per }, (_, i) => {
        const op = (p * per + i) * 2
        return record(tx, op, whole && p === parts - 1 && i === per - 1)
      }),
      per,
    )
}

function readPages(log: FileShapeLog, after: Offset, chunkBytes: number) {
  const pages: string[][] = []
  let at = after
  for (;;) {
    const page = log.read(at, chunkBytes)
    pages.push(page.messages.map(messageText))
    at = page.lastOffset
    if (page.atEnd) return pages
  }
}

it('answers a transaction appended in parts chunk by chunk', () => {
  const { log } = newLog()
  log.append([record(1, 0, true)], 1)
  appendInParts(log, 2, 20, 100, true)
  log.publish()
  const pages = readPages(log, BEFORE_ALL, 64 * 1024)
  expect(pages.flat()).toHaveLength(1 + 2000)
  expect(new Set(pages.flat()).size).toBe(2001)
  // 1 MB of records: about ten answers, none near all of it.
  expect(pages.length).toBeGreaterThan(5)
  expect(Math.max(...pages.map((p) => p.length))).toBeLessThan(300)
})

it('cuts a reopened log back to the last whole transaction, index included', async () => {
  const { log, dir } = newLog()
  log.append([record(1, 0, true)], 1)
  appendInParts(log, 2, 10, 100, true)
  log.publish()
  const whole = log.bytes
  // A crash while the next one is appended: its parts are on file, its end never came.
  appendInParts(log, 3, 10, 100, false)
  await log.sync()
  log.close()
  const reopened = FileShapeLog.open(dir)
  expect(reopened.bytes).toBe(whole)
  expect(reopened.rows).toBe(1001)
  expect(reopened.lastOffset).toEqual({ tx: 2n, op: 1998 })
  const index = readFileSync(join(dir, 'index'), 'utf8')
  for (const line of index.trim().split('\n'))
    expect(Number(line.split('\t')[1])).toBeLessThanOrEqual(whole)
  // The transaction comes again, whole this time, and reads as it should.
  appendInParts(reopened, 3, 10, 100, true)
  reopened.publish()
  const pages = readPages(reopened, BEFORE_ALL, 64 * 1024)
  expect(pages.flat()).toHaveLength(2001)
  expect(new Set(pages.flat()).size).toBe(2001)
  expect(reopened.rows).toBe(2001)
})
