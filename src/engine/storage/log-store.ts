// A shape's durable log: one append-only file of records `<offset>\t<last>\t<json>\n`, a
// sparse index of byte positions (and row counts) beside it, and a small in-memory tail for
// live readers. Appends become visible only at publish(), so a transaction appears on all its
// shapes at once. It counts the rows the shape holds in memory; after a restart the count is
// the last index point's plus what recovery (log-recovery.ts) reads past it, so no read ever
// rescans the log. Answers end at chunk ends found from byte positions (chunks.ts); once the log
// grows far past its snapshot, readers in the span compacted read a compacted segment of it
// instead (log-compaction.ts). The rest of the engine sees it only as shape-log.ts's ShapeLog.
import { appendFileSync, mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { flat } from '../flat.ts'
import { PRIVATE_DIR, PRIVATE_FILE } from './private-files.ts'
import { fdCache } from './fd-cache.ts'
import {
  FIRST_POINT,
  findSnapshotEnd,
  indexLine,
  recoverLog,
  type IndexPoint,
} from './log-recovery.ts'
import {
  chunkBoundary,
  lastSnapshotChunk,
  SNAPSHOT_IN_PROGRESS,
  namesSnapshotChunk,
  snapshotChunkOffset,
  snapshotChunkResume,
  type SnapshotBounds,
} from './chunks.ts'
import {
  LogTail,
  type ChunkCut,
  type LogRecord,
  type TailPage,
} from './log-tail.ts'
import { LogWriter, type JournalTake } from './log-writer.ts'
import { scanRecords, type ScanStart } from './record-scan.ts'
import { LogCompaction } from './log-compaction.ts'
import {
  BEFORE_ALL,
  SNAPSHOT_END,
  compareOffsets,
  formatOffset,
  type Offset,
} from './offset.ts'

import type { LogStorage, ReadResult, ShapeLog } from './shape-log.ts'

const INDEX_EVERY_BYTES = 64 * 1024
/** Appends a transaction applied in parts may leave waiting for their write. */
const WRITER_BACKLOG_BYTES = 4 * 1024 * 1024

export class FileShapeLog implements ShapeLog {
  private readonly logPath: string
  private readonly indexPath: string
  private index: IndexPoint[] = [FIRST_POINT]
  /** Where the snapshot ends, once it is complete (chunks.ts); null before. */
  private snapshot: SnapshotBounds | null = null
  /** Its compacted segment, once the log grew far past its snapshot (log-compaction.ts). */
  private readonly compaction: LogCompaction
  private endPos = 0
  private endOffset: Offset = BEFORE_ALL
  private endRows = 0
  private visibleRows = 0
  private endEntries = 0
  private visibleEntries = 0
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
    // The log is its own view for the compaction: no closures per shape (at 10,000 shapes every
    // old-generation collection marks what each keeps).
    this.compaction = new LogCompaction(this)
  }

  /** Where the snapshot ends; null until it is complete (log-compaction.ts reads it). */
  snapshotBounds(): SnapshotBounds | null {
    return this.snapshot
  }

  /** The published end's byte position (log-compaction.ts reads it). */
  get publishedPos(): number {
    return this.visiblePos
  }

  /** `size` bytes of the log at `pos`, on file or still in memory (log-compaction.ts). */
  readAt(pos: number, size: number): Buffer {
    return this.writer.readAt(pos, size)
  }

  static create(dir: string): FileShapeLog {
    rmSync(dir, { recursive: true, force: true })
    return new FileShapeLog(dir)
  }

  /** Reopens a log after a restart, dropping a torn or half-written transaction at its end. */
  static open(dir: string): FileShapeLog {
    LogCompaction.dropStale(dir)
    const log = new FileShapeLog(dir)
    const end = recoverLog(fdCache.use(log.logPath), log.indexPath)
    log.index = end.index
    log.writer = new LogWriter(log.logPath, end.pos)
    log.endPos = log.visiblePos = end.pos
    log.endOffset = log.visibleOffset = end.offset
    log.endRows = log.visibleRows = end.rows
    log.endEntries = log.visibleEntries = end.entries
    log.snapshot = findSnapshotEnd(
      log.index,
      (pos, size) => log.writer.readAt(pos, size),
      end.pos,
    )
    // Its segment was dropped: made again now, not at the next change, which may be long away.
    log.compaction.consider()
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

  /** The published records (rows, changes, control messages): what a new client reads. */
  get entries(): number {
    return this.visibleEntries
  }

  /** `rowDelta`: inserts less deletes among the records (row moves counted by their caller). */
  append(records: LogRecord[], rowDelta = 0): void {
    if (records.length === 0) return
    const text = records
      .map((r) => `${formatOffset(r.offset)}\t${r.last ? 1 : 0}\t${r.json}\n`)
      .join('')
    const buffer = Buffer.from(text)
    const base = this.grow(buffer, rowDelta, records.length)
    const lastRecord = records[records.length - 1] as LogRecord
    this.endOffset = lastRecord.offset
    this.tail.push(records, buffer, base)
    // Never inside at op 0: a client's `<lsn>_0` means past that whole transaction (serve-shape).
    if (lastRecord.last || lastRecord.offset.op > 0)
      this.indexIfDue(!lastRecord.last)
  }

  /**
   * Snapshot rows already written as log lines, `<op>\t1\t<json>\n` each, `rows` of them,
   * the last at `lastOp` (shapes/snapshot-copy.ts): the COPY read's bytes, never a record
   * object or string per row. Appended whole, so the caller sends pieces of about one index
   * step; and copied, so the caller reuses its buffer.
   */
  appendSnapshotLines(lines: Buffer, rows: number, lastOp: number): void {
    if (rows === 0) return
    const base = this.grow(lines, rows, rows, true)
    this.endOffset = { tx: 0n, op: lastOp }
    this.tail.pushSnapshotLines(lines, base, rows, this.endOffset)
    this.indexIfDue(false)
  }

  /**
   * Appends the bytes of `entries` records (`copy`: the caller reuses the buffer); answers the
   * file position they start at.
   */
  private grow(
    buffer: Buffer,
    rowDelta: number,
    entries: number,
    copy = false,
  ): number {
    this.writer.append(buffer, copy)
    const base = this.endPos
    this.endPos += buffer.length
    this.endRows += rowDelta
    this.endEntries += entries
    this.sinceIndex += buffer.length
    this.dirty = true
    return base
  }

  /** An index point at the end, once an index step was appended since the last. */
  private indexIfDue(inside: boolean): void {
    if (this.sinceIndex < INDEX_EVERY_BYTES) return
    this.addIndexPoint({
      offset: this.endOffset,
      pos: this.endPos,
      rows: this.endRows,
      entries: this.endEntries,
      inside,
    })
    this.sinceIndex = 0
  }

  /** Waits while the writes of appends fall far behind (log-writer.ts drained()). */
  writesCaughtUp(): Promise<void> {
    return this.writer.drained(WRITER_BACKLOG_BYTES)
  }

  /**
   * Snapshot rows (each one record and one row): appended in pieces of about one index step,
   * so the index falls inside a batch of thousands (a reader seeks to a point near its start).
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
    const rows = this.endPos
    this.append([{ offset: SNAPSHOT_END, json, last: true }])
    this.snapshot = { rows, end: this.endPos }
  }

  publish(): void {
    this.visiblePos = this.endPos
    this.visibleOffset = this.endOffset
    this.visibleRows = this.endRows
    this.visibleEntries = this.endEntries
    this.compaction.consider()
  }

  /**
   * The records after `after`, up to the end of the chunk that holds the first of them (chunks
   * of about `chunkBytes`, chunks.ts) or the published end.
   */
  read(after: Offset, chunkBytes: number): ReadResult {
    const cut = (from: number) => chunkBoundary(from, chunkBytes, this.snapshot)
    const snapshot = this.snapshot
    const resume =
      snapshot && namesSnapshotChunk(after)
        ? snapshotChunkResume(after.op, chunkBytes, snapshot)
        : null
    // A reader going on at the snapshot's end, or within the span compacted, reads the segment.
    const compacted =
      resume !== null
        ? this.compaction.made && resume > (snapshot?.rows ?? Infinity)
        : this.compaction.covers(after)
    const page = compacted
      ? this.readCompacted(resume !== null ? SNAPSHOT_END : after, chunkBytes)
      : resume !== null
        ? // A client at a small snapshot's end, waiting for its first change, reads the tail:
          // at 10,000 shapes, reading the file each time opened and closed a descriptor.
          this.tail.coversPosition(resume)
          ? this.tail.readFrom(resume, this.visibleOffset, cut)
          : this.readFile({ pos: resume }, cut)
        : // Every live request reads here: the tail's answer as it is, no copy.
          this.tail.covers(after)
          ? this.tail.read(after, this.visibleOffset, cut)
          : this.readFile({ after }, cut)
    const inSnapshot =
      snapshot && page.from !== null && page.lastOffset.tx === 0n
    return {
      messages: page.messages,
      lastOffset: inSnapshot
        ? snapshotChunkOffset(page.from ?? 0, chunkBytes)
        : page.from === null
          ? after
          : page.lastOffset,
      atEnd: page.atEnd,
    }
  }

  readSnapshotSoFar(after: Offset, chunkBytes: number): ReadResult | null {
    if (this.snapshot || this.closed) return null
    const from =
      after.tx < 0n
        ? 0
        : namesSnapshotChunk(after)
          ? snapshotChunkResume(after.op, chunkBytes, SNAPSHOT_IN_PROGRESS)
          : null
    if (from === null) return null
    // Cut where read() cuts once the snapshot's end is known: that end lies past a chunk whose
    // boundary the rows appended so far already reach.
    const cut = (start: number) =>
      chunkBoundary(start, chunkBytes, SNAPSHOT_IN_PROGRESS)
    if (this.endPos < cut(from)) return null
    const page = this.readFile(
      after.tx < 0n ? { after } : { pos: from },
      cut,
      this.endPos,
    )
    if (page.from === null || this.endPos < cut(page.from)) return null
    return {
      messages: page.messages,
      lastOffset: snapshotChunkOffset(page.from, chunkBytes),
      atEnd: false,
    }
  }

  /**
   * The records after `after` from the compacted segment, and on into the log past it while
   * their chunk lasts: an answer ends at its chunk's end or at the published end, wherever the
   * segment ends. (Stopping at the segment's end answered a live reader short of the end
   * without an up-to-date, though all it lacked fit in its chunk.)
   */
  private readCompacted(after: Offset, chunkBytes: number): TailPage {
    const page = this.compaction.read(after, chunkBytes, this.visibleOffset)
    if (page.atEnd || page.left === 0) return page
    // The log's records past the segment's end, up to the rest of the chunk.
    const cut = (from: number) => from + page.left
    const past = page.lastOffset
    const rest = this.tail.covers(past)
      ? this.tail.read(past, this.visibleOffset, cut)
      : this.readFile({ after: past }, cut)
    return {
      messages: page.messages.concat(rest.messages),
      lastOffset: rest.from === null ? page.lastOffset : rest.lastOffset,
      atEnd: rest.atEnd,
      from: page.from,
    }
  }

  /** Where a reader that has read everything published is, numbered as read() numbers. */
  tipOffset(chunkBytes: number): Offset {
    const snapshot = this.snapshot
    return snapshot && this.visiblePos === snapshot.end
      ? lastSnapshotChunk(snapshot, chunkBytes)
      : this.visibleOffset
  }

  /**
   * Whether a reader after `after` has read everything published (`chunkBytes`: the threshold
   * its snapshot offsets are numbered with): a snapshot chunk's number alone does not say.
   */
  caughtUp(after: Offset, chunkBytes: number): boolean {
    const snapshot = this.snapshot
    if (!snapshot || !namesSnapshotChunk(after))
      return compareOffsets(this.visibleOffset, after) <= 0
    // Past its rows: the snapshot's end is where it goes on; otherwise a row is still ahead.
    const resume = snapshotChunkResume(after.op, chunkBytes, snapshot)
    return resume > snapshot.rows && snapshot.end >= this.visiblePos
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
    this.compaction.close()
  }

  destroy(): void {
    this.close()
    rmSync(this.dir, { recursive: true, force: true })
  }

  /**
   * The records from the file (and what the writer still holds): those after `after`, or
   * those that start at or past byte `pos`; up to the end of their chunk (`cut`).
   */
  private readFile(
    start: ScanStart,
    cut: ChunkCut,
    end = this.visiblePos,
  ): TailPage {
    return scanRecords(
      {
        readAt: (pos, size) => this.writer.readAt(pos, size),
        index: this.index,
        end,
        // As the tail cuts (log-tail.ts): inside a transaction too, past its first record.
        endsChunk: (op, last, lineEnd, boundary) =>
          lineEnd >= boundary && (last || op > 0),
      },
      start,
      cut,
    )
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
