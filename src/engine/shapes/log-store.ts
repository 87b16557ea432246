// A shape's durable log: one append-only file of records `<offset>\t<last>\t<json>\n`, a
// sparse index of byte positions beside it, and a small in-memory tail for live readers.
// Appends become visible only at publish(), so a transaction appears on all its shapes at once.
import {
  appendFileSync,
  existsSync,
  fdatasync,
  ftruncateSync,
  fstatSync,
  mkdirSync,
  readFileSync,
  readSync,
  rmSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import { fdCache } from './fd-cache.ts'
import {
  BEFORE_ALL,
  SNAPSHOT_END,
  compareOffsets,
  formatOffset,
  parseOffset,
  type Offset,
} from './offset.ts'

export type LogRecord = { offset: Offset; json: string; last: boolean }
export type ReadResult = {
  messages: string[]
  lastOffset: Offset
  atEnd: boolean
}

const INDEX_EVERY_BYTES = 64 * 1024
const TAIL_MAX_RECORDS = 1024
const READ_BLOCK = 256 * 1024

type IndexPoint = { offset: Offset; pos: number }

export class ShapeLog {
  private readonly logPath: string
  private readonly indexPath: string
  private index: IndexPoint[] = [{ offset: BEFORE_ALL, pos: 0 }]
  private endPos = 0
  private endOffset: Offset = BEFORE_ALL
  private visiblePos = 0
  private visibleOffset: Offset = BEFORE_ALL
  private sinceIndex = 0
  private tail: LogRecord[] = []
  private dirty = false
  private closed = false

  private constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true })
    this.logPath = join(dir, 'log')
    this.indexPath = join(dir, 'index')
    fdCache.use(this.logPath)
  }

  static create(dir: string): ShapeLog {
    rmSync(dir, { recursive: true, force: true })
    return new ShapeLog(dir)
  }

  /** Reopens a log after a restart, dropping a torn or half-written transaction at its end. */
  static open(dir: string): ShapeLog {
    const log = new ShapeLog(dir)
    log.recover()
    return log
  }

  get lastOffset(): Offset {
    return this.visibleOffset
  }

  /** The end of what was appended, published or not. */
  get appendedOffset(): Offset {
    return this.endOffset
  }

  /** Closed (engine stopping) or destroyed (shape rotated): nothing may be appended. */
  get isClosed(): boolean {
    return this.closed
  }

  get bytes(): number {
    return this.endPos
  }

  append(records: LogRecord[]): void {
    if (records.length === 0) return
    const text = records
      .map((r) => `${formatOffset(r.offset)}\t${r.last ? 1 : 0}\t${r.json}\n`)
      .join('')
    const buffer = Buffer.from(text)
    writeSync(fdCache.use(this.logPath), buffer, 0, buffer.length, this.endPos)
    this.endPos += buffer.length
    this.sinceIndex += buffer.length
    const lastRecord = records[records.length - 1]
    if (lastRecord) this.endOffset = lastRecord.offset
    // No spread: a transaction can hold far more records than a call can take arguments.
    const kept =
      records.length > TAIL_MAX_RECORDS
        ? records.slice(-TAIL_MAX_RECORDS)
        : records
    for (const record of kept) this.tail.push(record)
    if (this.tail.length > TAIL_MAX_RECORDS)
      this.tail.splice(0, this.tail.length - TAIL_MAX_RECORDS)
    if (lastRecord?.last && this.sinceIndex >= INDEX_EVERY_BYTES) {
      this.addIndexPoint({ offset: this.endOffset, pos: this.endPos })
      this.sinceIndex = 0
    }
    this.dirty = true
  }

  /** The snapshot is complete: its end (`0_inf`) is a record too, so recovery sees it. */
  appendSnapshotEnd(): void {
    this.append([{ offset: SNAPSHOT_END, json: '', last: true }])
  }

  publish(): void {
    this.visiblePos = this.endPos
    this.visibleOffset = this.endOffset
  }

  /** Messages after `after`, up to about maxBytes, never splitting a transaction. */
  read(after: Offset, maxBytes: number): ReadResult {
    const first = this.tail[0]
    if (first && compareOffsets(after, first.offset) >= 0)
      return this.readTail(after, maxBytes)
    return this.readFile(after, maxBytes)
  }

  async sync(): Promise<void> {
    if (!this.dirty || this.closed) return
    this.dirty = false
    try {
      await fdCache.pinned(
        this.logPath,
        (fd) =>
          new Promise<void>((resolve, reject) =>
            fdatasync(fd, (error) => (error ? reject(error) : resolve())),
          ),
      )
    } catch (error) {
      // Not durable after all: the next flush must try again.
      this.dirty = true
      throw error
    }
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    fdCache.close(this.logPath)
  }

  destroy(): void {
    this.close()
    rmSync(this.dir, { recursive: true, force: true })
  }

  private readTail(after: Offset, maxBytes: number): ReadResult {
    const messages: string[] = []
    let bytes = 0
    let lastOffset = after
    for (const record of this.tail) {
      if (compareOffsets(record.offset, after) <= 0) continue
      if (compareOffsets(record.offset, this.visibleOffset) > 0) break
      if (record.json) messages.push(record.json)
      bytes += record.json.length
      lastOffset = record.offset
      if (record.last && bytes >= maxBytes) break
    }
    return {
      messages,
      lastOffset,
      atEnd: compareOffsets(lastOffset, this.visibleOffset) >= 0,
    }
  }

  private readFile(after: Offset, maxBytes: number): ReadResult {
    let lo = 0
    let hi = this.index.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (compareOffsets(this.index[mid]?.offset ?? BEFORE_ALL, after) <= 0)
        lo = mid
      else hi = mid - 1
    }
    let pos = this.index[lo]?.pos ?? 0
    const messages: string[] = []
    let bytes = 0
    let lastOffset = after
    let pending = ''
    scan: while (pos < this.visiblePos) {
      const size = Math.min(READ_BLOCK, this.visiblePos - pos)
      const block = Buffer.alloc(size)
      readSync(fdCache.use(this.logPath), block, 0, size, pos)
      pos += size
      const lines = (pending + block.toString('utf8')).split('\n')
      pending = lines.pop() ?? ''
      for (const line of lines) {
        const record = parseRecord(line)
        if (!record || compareOffsets(record.offset, after) <= 0) continue
        if (record.json) messages.push(record.json)
        bytes += record.json.length
        lastOffset = record.offset
        if (record.last && bytes >= maxBytes) break scan
      }
    }
    return {
      messages,
      lastOffset,
      atEnd: compareOffsets(lastOffset, this.visibleOffset) >= 0,
    }
  }

  private addIndexPoint(point: IndexPoint, persist = true) {
    this.index.push(point)
    if (persist)
      appendFileSync(
        this.indexPath,
        `${formatOffset(point.offset)}\t${point.pos}\n`,
      )
  }

  private recover() {
    const indexText = existsSync(this.indexPath)
      ? readFileSync(this.indexPath, 'utf8')
      : ''
    const fd = fdCache.use(this.logPath)
    const size = fstatSync(fd).size
    for (const line of indexText.split('\n')) {
      const [offsetText, posText] = line.split('\t')
      const offset = parseOffset(offsetText ?? '')
      const pos = Number(posText)
      if (offset && Number.isInteger(pos) && pos <= size)
        this.addIndexPoint({ offset, pos }, false)
    }
    const start = this.index[this.index.length - 1] ?? {
      offset: BEFORE_ALL,
      pos: 0,
    }
    // Scan from the last index point to the end; keep up to the last complete transaction.
    const buffer = Buffer.alloc(size - start.pos)
    readSync(fd, buffer, 0, buffer.length, start.pos)
    let pos = start.pos
    let goodPos = start.pos
    let goodOffset = start.offset
    for (const line of buffer.toString('utf8').split('\n')) {
      const lineBytes = Buffer.byteLength(line) + 1
      if (pos + lineBytes > size) break
      const record = parseRecord(line)
      if (!record) break
      pos += lineBytes
      if (record.last) {
        goodPos = pos
        goodOffset = record.offset
      }
    }
    if (goodPos < size) ftruncateSync(fd, goodPos)
    this.endPos = this.visiblePos = goodPos
    this.endOffset = this.visibleOffset = goodOffset
  }
}

function parseRecord(line: string): LogRecord | null {
  const a = line.indexOf('\t')
  const b = line.indexOf('\t', a + 1)
  if (a < 0 || b < 0) return null
  const offset = parseOffset(line.slice(0, a))
  if (!offset) return null
  return { offset, last: line.slice(a + 1, b) === '1', json: line.slice(b + 1) }
}
