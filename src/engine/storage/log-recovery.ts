// Reopening a shape log after a restart (log-store.ts): its index read back, the file scanned
// from the last transaction end the index knows, and a torn or half-written transaction at the
// end cut off, from the file and from the index, so the next append starts at a whole one.
import {
  existsSync,
  fstatSync,
  ftruncateSync,
  readFileSync,
  readSync,
  renameSync,
  writeFileSync,
} from 'node:fs'
import type { LogRecord } from './log-tail.ts'
import { PRIVATE_FILE } from './private-files.ts'
import type { SnapshotBounds } from './chunks.ts'
import {
  BEFORE_ALL,
  SNAPSHOT_END,
  compareOffsets,
  formatOffset,
  parseOffset,
  type Offset,
} from './offset.ts'

const READ_BLOCK = 256 * 1024

/**
 * `rows`: the shape's rows at that point; absent in an index written before rows were counted.
 * `inside`: within a transaction appended in parts (a spilled one, apply-transaction.ts), so
 * that a reader of its millions of rows reads them chunk by chunk, not in one answer.
 */
export type IndexPoint = {
  offset: Offset
  pos: number
  rows?: number
  /** Records up to here; absent in indexes written before they were counted. */
  entries?: number
  inside?: boolean
}

export const FIRST_POINT: IndexPoint = {
  offset: BEFORE_ALL,
  pos: 0,
  rows: 0,
  entries: 0,
}

/** Where a recovered log ends: its last whole transaction, and the index up to it. */
export type Recovered = {
  index: IndexPoint[]
  pos: number
  offset: Offset
  rows: number
  entries: number
}

/** `fd`: the log file, open for reading and writing. */
export function recoverLog(fd: number, indexPath: string): Recovered {
  const indexText = existsSync(indexPath) ? readFileSync(indexPath, 'utf8') : ''
  const size = fstatSync(fd).size
  const index: IndexPoint[] = [FIRST_POINT]
  let lines = 0
  for (const line of indexText.split('\n')) {
    const [offsetText, posText, rowsText, insideText, entriesText] =
      line.split('\t')
    const offset = parseOffset(offsetText ?? '')
    const pos = Number(posText)
    const rows = Number(rowsText)
    const entries = Number(entriesText)
    if (offsetText) lines++
    if (offset && Number.isInteger(pos) && pos <= size)
      index.push({
        offset,
        pos,
        rows: Number.isInteger(rows) ? rows : undefined,
        entries:
          entriesText !== undefined && Number.isInteger(entries)
            ? entries
            : undefined,
        inside: insideText === '1',
      })
  }
  // Scan from the last transaction end the index knows to the end of the file.
  const start = index.findLast((point) => !point.inside) ?? FIRST_POINT
  // An index from before rows were counted: count what precedes its last point once, here.
  // Records were counted later still: an older index's count is its rows, a floor.
  const rows = start.rows ?? countRows(fd, start.pos)
  const entries = start.entries ?? rows
  const good = scan(fd, start.pos, size, rows, entries) ?? {
    pos: start.pos,
    offset: start.offset,
    rows,
    entries,
  }
  if (good.pos < size) ftruncateSync(fd, good.pos)
  // Points past the cut (inside a torn transaction, or written before their records were):
  // gone from the file too, or they would point into whatever is appended there next.
  const kept = index.filter((point) => point.pos <= good.pos)
  if (kept.length < index.length || lines > kept.length - 1) {
    const text = kept.slice(1).map(indexLine).join('')
    writeFileSync(`${indexPath}.tmp`, text, { mode: PRIVATE_FILE })
    renameSync(`${indexPath}.tmp`, indexPath)
  }
  return { index: kept, ...good }
}

/**
 * Reads records from `from` to `size` block by block (a torn transaction can be a gigabyte):
 * the position, offset and row count after the last whole transaction; null if none ends.
 */
function scan(
  fd: number,
  from: number,
  size: number,
  rowsAtStart: number,
  entriesAtStart: number,
): Omit<Recovered, 'index'> | null {
  let good: Omit<Recovered, 'index'> | null = null
  let rows = rowsAtStart
  let entries = entriesAtStart
  let pos = from
  let readPos = from
  let pending = Buffer.alloc(0)
  const block = Buffer.alloc(READ_BLOCK)
  while (readPos < size) {
    const n = readSync(
      fd,
      block,
      0,
      Math.min(READ_BLOCK, size - readPos),
      readPos,
    )
    if (n === 0) break
    readPos += n
    const data = Buffer.concat([pending, block.subarray(0, n)])
    let at = 0
    for (;;) {
      const newline = data.indexOf(10, at)
      if (newline < 0) break
      const record = parseRecord(data.toString('utf8', at, newline))
      if (!record) return good
      pos += newline + 1 - at
      at = newline + 1
      rows += rowDelta(record.json)
      entries++
      if (record.last) good = { pos, offset: record.offset, rows, entries }
    }
    pending = Buffer.from(data.subarray(at))
  }
  return good
}

/** The rows the records before `end` add up to, read block by block. */
function countRows(fd: number, end: number): number {
  let rows = 0
  let pos = 0
  let pending = ''
  const block = Buffer.alloc(READ_BLOCK)
  while (pos < end) {
    const n = readSync(fd, block, 0, Math.min(READ_BLOCK, end - pos), pos)
    if (n === 0) break
    pos += n
    const lines = (pending + block.toString('utf8', 0, n)).split('\n')
    pending = lines.pop() ?? ''
    for (const line of lines) {
      const record = parseRecord(line)
      if (record) rows += rowDelta(record.json)
    }
  }
  return rows
}

/** What one stored message does to the row count: an insert adds a row, a delete takes one. */
function rowDelta(json: string): number {
  if (!json) return 0
  const { headers } = JSON.parse(json) as { headers?: { operation?: string } }
  return headers?.operation === 'insert'
    ? 1
    : headers?.operation === 'delete'
      ? -1
      : 0
}

/**
 * Where a reopened log's snapshot ends: its end record (`0_inf`) is found by reading from the
 * last index point before it, a step of the index at most. Null if the log has none.
 */
export function findSnapshotEnd(
  index: IndexPoint[],
  readAt: (pos: number, size: number) => Buffer,
  size: number,
): SnapshotBounds | null {
  const start =
    index.findLast((point) => compareOffsets(point.offset, SNAPSHOT_END) < 0) ??
    FIRST_POINT
  let dataPos = start.pos
  let readPos = start.pos
  let data: Buffer = Buffer.alloc(0)
  while (readPos < size) {
    const block = readAt(readPos, Math.min(READ_BLOCK, size - readPos))
    readPos += block.length
    data = data.length > 0 ? Buffer.concat([data, block]) : block
    let at = 0
    for (;;) {
      const newline = data.indexOf(10, at)
      if (newline < 0) break
      const record = parseRecord(data.toString('utf8', at, newline))
      if (record && compareOffsets(record.offset, SNAPSHOT_END) >= 0)
        return compareOffsets(record.offset, SNAPSHOT_END) === 0
          ? { rows: dataPos + at, end: dataPos + newline + 1 }
          : null
      at = newline + 1
    }
    data = data.subarray(at)
    dataPos += at
  }
  return null
}

export function indexLine(point: IndexPoint): string {
  // Records last, after the inside flag (0 or 1), which lines before them leave out when 0.
  const rest =
    point.entries !== undefined
      ? `\t${point.inside ? 1 : 0}\t${point.entries}`
      : point.inside
        ? '\t1'
        : ''
  return `${formatOffset(point.offset)}\t${point.pos}\t${point.rows}${rest}\n`
}

const TAB = 9
const ONE = 0x31

/**
 * As parseRecord, for the line at bytes start..end of `data` (its newline excluded): the JSON
 * as a view of those bytes, not a string.
 */
export function parseRecordBytes(
  data: Buffer,
  start: number,
  end: number,
): { offset: Offset; last: boolean; json: Buffer } | null {
  const a = data.indexOf(TAB, start)
  if (a < 0 || a >= end) return null
  const b = data.indexOf(TAB, a + 1)
  if (b < 0 || b >= end) return null
  const offset = parseOffset(data.toString('latin1', start, a))
  if (!offset) return null
  return {
    offset,
    last: b === a + 2 && data[a + 1] === ONE,
    json: data.subarray(b + 1, end),
  }
}

/** One line of the log, `<offset>\t<last>\t<json>`; null if it is not one (a torn end). */
export function parseRecord(line: string): LogRecord | null {
  const a = line.indexOf('\t')
  const b = line.indexOf('\t', a + 1)
  if (a < 0 || b < 0) return null
  const offset = parseOffset(line.slice(0, a))
  if (!offset) return null
  return { offset, last: line.slice(a + 1, b) === '1', json: line.slice(b + 1) }
}
