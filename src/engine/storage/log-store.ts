// A shape's durable log: one append-only file of records `<offset>\t<last>\t<json>\n`, a
// sparse index of byte positions (and row counts) beside it, and a small in-memory tail for
// live readers. Appends become visible only at publish(), so a transaction appears on all its
// shapes at once. It counts the rows the shape holds in memory; after a restart the count is
// the last index point's plus what recovery (log-recovery.ts) reads past it, so no read ever
// rescans the log. The rest of the engine sees it only as shape-log.ts's ShapeLog.
import { appendFileSync, mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { flat } from '../flat.ts'
import { PRIVATE_DIR, PRIVATE_FILE } from './private-files.ts'
import { fdCache } from './fd-cache.ts'
import {
  FIRST_POINT,
  indexLine,
  parseRecord,
  recoverLog,
  type IndexPoint,
} from './log-recovery.ts'
import { LogTail, type LogRecord } from './log-tail.ts'
import { LogWriter, type JournalTake } from './log-writer.ts'
import {
  BEFORE_ALL,
  SNAPSHOT_END,
  compareOffsets,
  formatOffset,
  type Offset,
} from './offset.ts'

import type { LogStorage, ReadResult, ShapeLog } from './shape-log.ts'

const INDEX_EVERY_BYTES = 64 * 1024
const READ_BLOCK = 256 * 1024
/** Appends a transaction applied in parts may leave waiting for their write. */
const WRITER_BACKLOG_BYTES = 4 * 1024 * 1024

export class FileShapeLog implements ShapeLog {
  private readonly logPath: string
  private readonly indexPath: string
  private index: IndexPoint[] = [FIRST_POINT]
  /** The chunk ends found so far in `index`, for one threshold (chunkEnd). */
  private chunks = {
    threshold: 0,
    scanned: 0,
    lastPos: 0,
    ends: [] as Offset[],
  }
  private endPos = 0
  private endOffset: Offset = BEFORE_ALL
  private endRows = 0
  private visibleRows = 0
  private visiblePos = 0
  private visibleOffset: Offset = BEFORE_ALL
  private sinceIndex = 0
  private tail = new LogTail()
  private writer: LogWriter
  /** Appended since the last sync started; `syncing`, that sync. */
  private dirty = false
  private syncing: Promise<void> | null = null
  private closed = false

  private constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR })
    this.logPath = flat(join(dir, 'log'))
    this.indexPath = flat(join(dir, 'index'))
    fdCache.use(this.logPath)
    this.writer = new LogWriter(this.logPath, 0)
  }

  static create(dir: string): FileShapeLog {
    rmSync(dir, { recursive: true, force: true })
    return new FileShapeLog(dir)
  }

  /** Reopens a log after a restart, dropping a torn or half-written transaction at its end. */
  static open(dir: string): FileShapeLog {
    const log = new FileShapeLog(dir)
    const end = recoverLog(fdCache.use(log.logPath), log.indexPath)
    log.index = end.index
    log.writer = new LogWriter(log.logPath, end.pos)
    log.endPos = log.visiblePos = end.pos
    log.endOffset = log.visibleOffset = end.offset
    log.endRows = log.visibleRows = end.rows
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

  /** What the in-memory tail holds: bounded whatever the log's length (log-tail.ts). */
  get tailSize(): { records: number; bytes: number } {
    return this.tail.size
  }

  /** The rows a client holds once it has read everything published. */
  get rows(): number {
    return this.visibleRows
  }

  /** `rowDelta`: inserts less deletes among the records (row moves counted by their caller). */
  append(records: LogRecord[], rowDelta = 0): void {
    if (records.length === 0) return
    const text = records
      .map((r) => `${formatOffset(r.offset)}\t${r.last ? 1 : 0}\t${r.json}\n`)
      .join('')
    const buffer = Buffer.from(text)
    this.writer.append(buffer)
    this.endPos += buffer.length
    this.endRows += rowDelta
    this.sinceIndex += buffer.length
    const lastRecord = records[records.length - 1]
    if (lastRecord) this.endOffset = lastRecord.offset
    this.tail.push(records, buffer)
    // Never inside at op 0: a client's `<lsn>_0` means past that whole transaction (serve-shape).
    if (
      lastRecord &&
      (lastRecord.last || lastRecord.offset.op > 0) &&
      this.sinceIndex >= INDEX_EVERY_BYTES
    ) {
      this.addIndexPoint({
        offset: this.endOffset,
        pos: this.endPos,
        rows: this.endRows,
        inside: !lastRecord.last,
      })
      this.sinceIndex = 0
    }
    this.dirty = true
  }

  /** Waits while the writes of appends fall far behind (log-writer.ts drained()). */
  writesCaughtUp(): Promise<void> {
    return this.writer.drained(WRITER_BACKLOG_BYTES)
  }

  /**
   * Snapshot rows (each one record and one row): appended in pieces of about one index step,
   * so the index, and the chunk ends that follow from it, fall inside a batch of thousands.
   */
  appendSnapshotRows(records: LogRecord[]): void {
    let start = 0
    let bytes = 0
    for (let i = 0; i < records.length; i++) {
      bytes += records[i]?.json.length ?? 0
      if (bytes < INDEX_EVERY_BYTES && i < records.length - 1) continue
      this.append(records.slice(start, i + 1), i + 1 - start)
      start = i + 1
      bytes = 0
    }
  }

  /**
   * The snapshot is complete: its end (`0_inf`) is a record too, so recovery sees it. `json` is
   * the snapshot-end control message clients read there (logs written before it had none).
   */
  appendSnapshotEnd(json: string): void {
    this.append([{ offset: SNAPSHOT_END, json, last: true }])
  }

  publish(): void {
    this.visiblePos = this.endPos
    this.visibleOffset = this.endOffset
    this.visibleRows = this.endRows
  }

  /**
   * The records after `after`, up to the end of the chunk that holds the first of them (chunks
   * of about `chunkBytes`, below) or the published end; none past `upTo` when given.
   */
  read(after: Offset, chunkBytes: number, upTo?: Offset): ReadResult {
    const end = this.chunkEnd(after, chunkBytes)
    // A bounded read is a shape's first answer, from the start: the file holds it.
    if (upTo) return this.readFile(after, end, upTo)
    // Every live request reads here: the tail's answer as it is, no copy.
    if (this.tail.covers(after))
      return this.tail.read(after, this.visibleOffset, end)
    return this.readFile(after, end)
  }

  /**
   * Electric's log chunks: a chunk ends at the first index point (a transaction end) where the
   * bytes since the previous chunk's end reach the threshold. They follow from the index alone,
   * so every reader, whatever offset it resumes from, is cut at the same places, and a cache
   * can share the answers. (After a restart the index may thin out past its last saved point,
   * so later cuts can move; answers stay correct, only less shared.)
   */
  private chunkEnd(after: Offset, threshold: number): Offset | null {
    if (this.chunks.threshold !== threshold)
      this.chunks = { threshold, scanned: 0, lastPos: 0, ends: [] }
    const c = this.chunks
    for (; c.scanned < this.index.length; c.scanned++) {
      const point = this.index[c.scanned]
      if (point && point.pos - c.lastPos >= threshold) {
        c.ends.push(point.offset)
        c.lastPos = point.pos
      }
    }
    let lo = 0
    let hi = c.ends.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      const end = c.ends[mid]
      if (end && compareOffsets(end, after) <= 0) lo = mid + 1
      else hi = mid
    }
    return c.ends[lo] ?? null
  }

  /** The log file's path, as the journal names it. */
  get path(): string {
    return this.logPath
  }

  /** What the journal must hold of this log since the last flush (log-writer.ts). */
  takeJournal(): JournalTake {
    return this.closed ? null : this.writer.takeJournal()
  }

  /** The journal failed to hold what was taken from `pos`: take it again as `sync`. */
  untakeJournal(pos: number): void {
    this.writer.untake(pos)
  }

  /** After a `sync` take (log-writer.ts): this log alone, written and fdatasynced. */
  syncTaken(): Promise<void> {
    return this.writer.syncTaken()
  }

  /** Makes the file itself durable: everything appended, written and fdatasynced. */
  async sync(): Promise<void> {
    if (this.closed) return
    // A sync in flight covers every append so far.
    if (!this.dirty) return this.syncing ?? undefined
    this.dirty = false
    const syncing = this.writer.sync()
    this.syncing = syncing
    try {
      await syncing
    } catch (error) {
      // Not durable after all: the next flush must try again.
      this.dirty = true
      throw error
    } finally {
      if (this.syncing === syncing) this.syncing = null
    }
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    this.writer.close()
    this.tail.release()
    fdCache.close(this.logPath)
  }

  destroy(): void {
    this.close()
    rmSync(this.dir, { recursive: true, force: true })
  }

  private readFile(
    after: Offset,
    end: Offset | null,
    upTo?: Offset,
  ): ReadResult {
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
    let lastOffset = after
    let pending = ''
    scan: while (pos < this.visiblePos) {
      const size = Math.min(READ_BLOCK, this.visiblePos - pos)
      const block = this.writer.readAt(pos, size)
      pos += size
      const lines = (pending + block.toString('utf8')).split('\n')
      pending = lines.pop() ?? ''
      for (const line of lines) {
        const record = parseRecord(line)
        if (!record || compareOffsets(record.offset, after) <= 0) continue
        if (upTo && compareOffsets(record.offset, upTo) > 0) break scan
        if (record.json) messages.push(record.json)
        lastOffset = record.offset
        if (end && compareOffsets(record.offset, end) >= 0) break scan
      }
    }
    return {
      messages,
      lastOffset,
      atEnd: compareOffsets(lastOffset, this.visibleOffset) >= 0,
    }
  }

  private addIndexPoint(point: IndexPoint) {
    this.index.push(point)
    appendFileSync(this.indexPath, indexLine(point), { mode: PRIVATE_FILE })
  }
}

/** The engine's shape logs: files in each shape's directory. */
export const fileLogs: LogStorage = {
  create: (dir) => FileShapeLog.create(dir),
  open: (dir) => FileShapeLog.open(dir),
}
