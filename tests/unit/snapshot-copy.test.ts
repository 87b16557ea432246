// The snapshot's COPY path below Postgres: binary COPY rows read whatever the chunks' cuts
// (pg/copy-binary.ts), framed as log lines in pieces (shapes/snapshot-copy.ts), and a log
// filled with those lines answering every read exactly as one filled with the same rows as
// records does, from memory and from its file.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { messageText } from '../../src/engine/http/answer-body.ts'
import { CopyBinaryRows } from '../../src/engine/pg/copy-binary.ts'
import { SnapshotLines } from '../../src/engine/shapes/snapshot-copy.ts'
import { FileShapeLog } from '../../src/engine/storage/log-store.ts'
import { LogTail } from '../../src/engine/storage/log-tail.ts'
import { BEFORE_ALL, type Offset } from '../../src/engine/storage/offset.ts'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0))
    rmSync(dir, { recursive: true, force: true })
})

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1')

/** What Postgres sends for `COPY (one text column) TO STDOUT (FORMAT binary)`. */
function copyStream(fields: string[], extension = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(8)
  header.writeUInt32BE(extension.length, 4)
  const rows = fields.map((field) => {
    const bytes = Buffer.from(field)
    const head = Buffer.alloc(6)
    head.writeInt16BE(1, 0)
    head.writeInt32BE(bytes.length, 2)
    return Buffer.concat([head, bytes])
  })
  const trailer = Buffer.from([0xff, 0xff])
  return Buffer.concat([SIGNATURE, header, extension, ...rows, trailer])
}

function readAll(chunks: Buffer[]): { fields: string[]; complete: boolean } {
  const reader = new CopyBinaryRows()
  const fields: string[] = []
  for (const chunk of chunks)
    reader.push(chunk, (data, start, end) =>
      fields.push(data.toString('utf8', start, end)),
    )
  return { fields, complete: reader.complete }
}

const FIELDS = [
  '{"key":"\\"public\\".\\"t\\"/\\"1\\"","value":{"t":"a\\tb\\\\c"}}',
  '',
  '{"v":"ünïcødé ✓ 😀"}',
  'x'.repeat(70_000),
  '{}',
]

describe('binary COPY rows', () => {
  it('reads every field whole wherever the chunks are cut, even one byte at a time', () => {
    const stream = copyStream(FIELDS, Buffer.from('ext'))
    const whole = readAll([stream])
    expect(whole).toEqual({ fields: FIELDS, complete: true })
    const small = copyStream(FIELDS.filter((f) => f.length < 100))
    for (let cut = 1; cut < small.length; cut++)
      expect(readAll([small.subarray(0, cut), small.subarray(cut)])).toEqual({
        fields: FIELDS.filter((f) => f.length < 100),
        complete: true,
      })
    const bytes = Array.from({ length: stream.length }, (_, i) =>
      stream.subarray(i, i + 1),
    )
    expect(readAll(bytes)).toEqual({ fields: FIELDS, complete: true })
  })

  it('is incomplete until the trailer, and refuses what a one-column text COPY never sends', () => {
    const stream = copyStream(['a', 'b'])
    expect(readAll([stream.subarray(0, stream.length - 2)]).complete).toBe(
      false,
    )
    expect(() => readAll([Buffer.from('1\tone\n2\ttwo\n3\tthree\n')])).toThrow(
      /binary format/,
    )
    const twoFields = Buffer.concat([
      SIGNATURE,
      Buffer.alloc(8),
      Buffer.from([0, 2, 0, 0, 0, 0, 0, 0, 0, 0]),
    ])
    expect(() => readAll([twoFields])).toThrow(/2 fields/)
    const nullField = Buffer.concat([
      SIGNATURE,
      Buffer.alloc(8),
      Buffer.from([0, 1, 0xff, 0xff, 0xff, 0xff]),
    ])
    expect(() => readAll([nullField])).toThrow(/null field/)
    expect(() => readAll([stream, Buffer.from([0])])).toThrow(
      /after its trailer/,
    )
  })
})

describe('snapshot lines', () => {
  it('frames each message as a record line numbered from 0, in pieces of at most 64 KiB, a longer line alone', () => {
    const pieces: Array<{ text: string; rows: number }> = []
    const lines = new SnapshotLines((piece, rows) =>
      pieces.push({ text: piece.toString('utf8'), rows }),
    )
    const messages = [
      ...Array.from(
        { length: 500 },
        (_, i) => `{"n":${i},"pad":"${'y'.repeat(300)}"}`,
      ),
      `{"big":"${'z'.repeat(100_000)}"}`,
      '{"after":"ü"}',
    ]
    for (const m of messages) {
      const data = Buffer.from(`--${m}--`)
      lines.add(data, 2, data.length - 2)
    }
    lines.flush()
    expect(pieces.map((p) => p.text).join('')).toBe(
      messages.map((m, op) => `0_${op}\t1\t${m}\n`).join(''),
    )
    expect(pieces.reduce((n, p) => n + p.rows, 0)).toBe(messages.length)
    for (const p of pieces)
      if (p.rows > 1)
        expect(Buffer.byteLength(p.text)).toBeLessThanOrEqual(64 * 1024)
    expect(pieces.some((p) => p.rows === 1 && p.text.includes('"big"'))).toBe(
      true,
    )
  })
})

describe('a log filled with snapshot lines', () => {
  const newLog = () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-copy-'))
    dirs.push(dir)
    return { log: FileShapeLog.create(dir), dir }
  }
  const messagesOf = (rows: number) =>
    Array.from({ length: rows }, (_, op) =>
      JSON.stringify({
        key: `s${op}`,
        // One line longer than a piece, which the framer sends alone.
        pad: 'x'.repeat(op === 1_000 ? 70_000 : 50 + ((op * 37) % 400)),
      }),
    )

  /** Every answer from the start, at a threshold, as text. */
  function answers(log: FileShapeLog, threshold: number) {
    const pages: Array<{ messages: string[]; lastOffset: Offset }> = []
    let at: Offset = BEFORE_ALL
    for (;;) {
      const page = log.read(at, threshold)
      pages.push({
        messages: page.messages.map(messageText),
        lastOffset: page.lastOffset,
      })
      if (page.atEnd) break
      at = page.lastOffset
    }
    return pages
  }

  it('answers as the same rows appended as records, from memory and after a reopen, though its buffer is reused', async () => {
    for (const rows of [3, 2_000]) {
      const messages = messagesOf(rows)
      const byRecords = newLog()
      byRecords.log.appendSnapshotRows(
        messages.map((json, op) => ({
          offset: { tx: 0n, op },
          json,
          last: true,
        })),
      )
      const byLines = newLog()
      let lastOp = -1
      const framer = new SnapshotLines((piece, n) => {
        lastOp += n
        byLines.log.appendSnapshotLines(piece, n, lastOp)
        // The framer reuses its buffer: what the log holds must be a copy.
        piece.fill(0x21)
      })
      for (const m of messages) {
        const data = Buffer.from(m)
        framer.add(data, 0, data.length)
      }
      framer.flush()
      for (const { log } of [byRecords, byLines]) {
        log.appendSnapshotEnd('{"headers":{"control":"snapshot-end"}}')
        log.append(
          [{ offset: { tx: 7n, op: 0 }, json: '{"key":"t"}', last: true }],
          1,
        )
        log.publish()
      }
      expect(byLines.log.rows).toBe(byRecords.log.rows)
      expect(byLines.log.entries).toBe(byRecords.log.entries)
      expect(byLines.log.bytes).toBe(byRecords.log.bytes)
      // The same records and bytes in memory (its arena grew by other steps).
      const { records, bytes } = byRecords.log.tailSize
      expect(byLines.log.tailSize).toMatchObject({ records, bytes })
      for (const threshold of [10_000, 100_000])
        expect(answers(byLines.log, threshold)).toEqual(
          answers(byRecords.log, threshold),
        )
      await byLines.log.sync()
      const reopened = FileShapeLog.open(byLines.dir)
      expect(answers(reopened, 10_000)).toEqual(answers(byRecords.log, 10_000))
      reopened.close()
      byLines.log.close()
      byRecords.log.close()
    }
  })
})

it('keeps the same newest records in a tail as lines as it does as records', () => {
  const messages = Array.from({ length: 300 }, (_, op) =>
    JSON.stringify({ key: `s${op}`, pad: 'p'.repeat(op % 90) }),
  )
  const lines = Buffer.from(
    messages.map((json, op) => `0_${op}\t1\t${json}\n`).join(''),
  )
  const records = messages.map((json, op) => ({
    offset: { tx: 0n, op },
    json,
    last: true,
  }))
  const asRecords = new LogTail()
  const asLines = new LogTail()
  // Two appends each: the second's lines continue the first's numbering.
  const cut = lines.indexOf(`0_200\t`)
  asRecords.push(records.slice(0, 200), lines.subarray(0, cut), 0)
  asRecords.push(records.slice(200), lines.subarray(cut), cut)
  asLines.pushSnapshotLines(lines.subarray(0, cut), 0, 200, { tx: 0n, op: 199 })
  asLines.pushSnapshotLines(lines.subarray(cut), cut, 100, { tx: 0n, op: 299 })
  const visible = { tx: 0n, op: 299 }
  const noCut = () => Infinity
  expect(asLines.size).toMatchObject({
    records: asRecords.size.records,
    bytes: asRecords.size.bytes,
  })
  for (const op of [0, 150, 250, 290, 298]) {
    const after = { tx: 0n, op }
    expect(asLines.covers(after)).toBe(asRecords.covers(after))
    if (!asRecords.covers(after)) continue
    const page = (tail: LogTail) => {
      const p = tail.read(after, visible, noCut)
      return { ...p, messages: p.messages.map(messageText) }
    }
    expect(page(asLines)).toEqual(page(asRecords))
  }
  for (const pos of [cut, cut + 500, lines.length - 10])
    expect(asLines.coversPosition(pos)).toBe(asRecords.coversPosition(pos))
  asLines.release()
  asRecords.release()
})
