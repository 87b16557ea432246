// Shape log storage as the rest of the engine sees it: the one interface between the shape model
// (shapes/), the durability loop and the HTTP answers on one side, and how records sit on disk
// (log-store.ts and the files beside it) on the other. database.ts picks the implementation.
import type { LogRecord, Message } from './log-tail.ts'
import type { JournalTake } from './log-writer.ts'
import type { Offset } from './offset.ts'

export type { LogRecord, Message }

export type ReadResult = {
  messages: Message[]
  lastOffset: Offset
  atEnd: boolean
}

/**
 * One shape's log. Appends become visible to readers only at publish(), so a transaction appears
 * on all its shapes at once.
 */
export interface ShapeLog {
  /** The directory the log keeps its files in (the shape's metadata goes beside them). */
  readonly dir: string
  /** The end of what was published. */
  readonly lastOffset: Offset
  /** The end of what was appended, published or not. */
  readonly appendedOffset: Offset
  /** Closed (engine stopping) or destroyed (shape rotated): nothing may be appended. */
  readonly isClosed: boolean
  readonly bytes: number
  /** The rows a client holds once it has read everything published. */
  readonly rows: number
  /** The published records (rows, changes, control messages): what a new client reads. */
  readonly entries: number
  /** The log file's path, as the journal names it. */
  readonly path: string
  /** `rowDelta`: inserts less deletes among the records (row moves counted by their caller). */
  append(records: LogRecord[], rowDelta?: number): void
  /** Snapshot rows, each one record and one row. */
  appendSnapshotRows(records: LogRecord[]): void
  /**
   * Snapshot rows as the log's lines (`<op>\t1\t<json>\n`), `rows` of them, the last at
   * `lastOp`: the rows of a COPY read, never parsed (shapes/snapshot-copy.ts). Copied: the
   * caller may reuse `lines`.
   */
  appendSnapshotLines(lines: Buffer, rows: number, lastOp: number): void
  /** The snapshot is complete; `json` is the snapshot-end message clients read there. */
  appendSnapshotEnd(json: string): void
  publish(): void
  /** Waits while the writes of appends fall far behind. */
  writesCaughtUp(): Promise<void>
  /**
   * The published records after `after`, up to the end of a chunk of about `chunkBytes`; the
   * snapshot's end always ends one (a shape's first answer is the snapshot alone). Offsets
   * within the snapshot are its chunks' numbers for that threshold (chunks.ts).
   */
  read(after: Offset, chunkBytes: number): ReadResult
  /**
   * While the snapshot is still being read: the snapshot chunk a reader after `after` (`-1`,
   * or a snapshot chunk's offset) reads, once all of it is appended; null until then, or once
   * the snapshot is complete (read answers). The same records and offset read gives later.
   */
  readSnapshotSoFar(after: Offset, chunkBytes: number): ReadResult | null
  /** Where a reader that has read everything published is (read's numbering). */
  tipOffset(chunkBytes: number): Offset
  /** Whether a reader after `after` has read everything published (read's numbering). */
  caughtUp(after: Offset, chunkBytes: number): boolean
  /** What the journal must hold of this log since the last flush. */
  takeJournal(): JournalTake
  /** The journal failed to hold what was taken from `pos`: take it again as `sync`. */
  untakeJournal(pos: number): void
  /** After a `sync` take: this log alone, written and made durable. */
  syncTaken(): Promise<void>
  /** Makes everything appended durable in the log itself. */
  sync(): Promise<void>
  close(): void
  /** Closes the log and deletes its directory. */
  destroy(): void
}

/** Where shape logs come from: a new, empty one in `dir`, or the one kept there, recovered. */
export type LogStorage = {
  create(dir: string): ShapeLog
  open(dir: string): ShapeLog
}
