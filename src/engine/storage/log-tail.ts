// A shape log's newest records in memory, for live readers: they ask for the last few records,
// and one further behind reads the file (log-store.ts). Bounded in bytes as well as records, and
// in bytes across all shapes: a thousand busy shapes with 1,024 records each held a million
// strings (about 250 MB) for the garbage collector to mark (its share of the engine's time went
// from 21% to 18.5%), and ten thousand with 16 KiB each would hold 160 MB.
//
// It holds no object per record. The records' JSON is copied into one buffer per tail (outside
// the JavaScript heap), and their offsets and byte ranges are numbers in arrays. As strings,
// every record outlived two young-generation collections and was promoted (a third of all that
// was promoted at 1,000 live shapes). As an object per record (its offset, a range of the
// append's buffer, that Buffer), 10,000 live shapes held about 270,000 objects in their tails, a
// tenth of the heap's, which every old-generation collection marks while answers wait
// (bench:engine --shapes 10000, heap snapshot).
import { compareOffsets, type Offset } from './offset.ts'

/** One record of a shape's log: a message's JSON at its offset (`last`: its transaction's last). */
export type LogRecord = { offset: Offset; json: string; last: boolean }

/** For the file position an answer starts at: the position its chunk ends at or past. */
export type ChunkCut = (from: number) => number

/**
 * A message of an answer, as JSON: text (from memory), or the bytes of a log file (record-scan.ts,
 * never decoded on the way to the client).
 */
export type Message = string | Buffer

/** Records read: `from`, the file position the first one starts at (null when none was read). */
export type TailPage = {
  messages: Message[]
  lastOffset: Offset
  atEnd: boolean
  from: number | null
}

const MAX_RECORDS = 1024
/**
 * What all tails hold together at most: each open tail gets an equal share, between the two
 * bounds. At 1,000 shapes that is 16 KiB each; at 10,000, 2 KiB (a few records, still more than
 * a live reader is behind).
 */
const TOTAL_BYTES = 16 * 1024 * 1024
const MAX_BYTES = 16 * 1024
const MIN_BYTES = 2 * 1024
let openTails = 0
const shareBytes = () =>
  Math.min(
    MAX_BYTES,
    Math.max(MIN_BYTES, Math.floor(TOTAL_BYTES / Math.max(1, openTails))),
  )
const TAB = 9
const NEWLINE = 10
const EMPTY = Buffer.alloc(0)
/** Where the JSON of the line starting at `pos` starts: past `<offset>\t<last>\t`. */
const jsonStart = (lines: Buffer, pos: number) =>
  lines.indexOf(TAB, lines.indexOf(TAB, pos) + 1) + 1

export class LogTail {
  // Record i of the tail (0 <= i < count) is at index head + i of each array: its offset as
  // tx and op, its JSON as bytes start..end of `arena`. (A tx is the bigint the change came
  // with, shared, not a new object.)
  private tx: bigint[] = []
  private op: number[] = []
  private start: number[] = []
  private end: number[] = []
  /**
   * Where each record's line ends in the log file, negative when the record does not end its
   * transaction (one array, not two: at 10,000 shapes each array is 10,000 more objects).
   */
  private ends: number[] = []
  private head = 0
  private arena = EMPTY
  /** Where the next record's bytes go in the arena. */
  private used = 0
  /** The JSON bytes the tail holds. */
  private bytes = 0
  /** The newest record's offset as appended: most reads end there and return it as it is. */
  private newest: Offset | null = null
  private released = false

  constructor() {
    openTails++
  }

  /**
   * The log is closed: its share goes to the other tails. (Its records stay for a request that
   * reads it as it closes; the log itself is dropped with its shape.)
   */
  release(): void {
    if (this.released) return
    this.released = true
    openTails--
  }

  get size(): { records: number; bytes: number; capacity: number } {
    return {
      records: this.count,
      bytes: this.bytes,
      capacity: this.arena.length,
    }
  }

  private get count(): number {
    return this.tx.length - this.head
  }

  /** Whether a reader at `after` is served from memory: at or past the oldest record held. */
  covers(after: Offset): boolean {
    if (this.count === 0) return false
    return this.compareAt(this.head, after) <= 0
  }

  /**
   * `lines`: what the append wrote for these records, in order, one line each:
   * `<offset>\t<last>\t<json>\n` (JSON holds no raw tab or newline), from file position `base`.
   */
  push(records: LogRecord[], lines: Buffer, base: number): void {
    if (records.length === 0) return
    const jsonStarts: number[] = []
    const lineEnds: number[] = []
    let pos = 0
    for (let i = 0; i < records.length; i++) {
      const lineEnd = lines.indexOf(NEWLINE, pos)
      jsonStarts.push(jsonStart(lines, pos))
      lineEnds.push(lineEnd)
      pos = lineEnd + 1
    }
    this.keep(lines, base, records.length, jsonStarts, lineEnds, (i) => {
      const { offset, last } = records[i] as LogRecord
      return { tx: offset.tx, op: offset.op, last }
    })
    this.newest = (records[records.length - 1] as LogRecord).offset
  }

  /**
   * Snapshot rows appended as lines alone (shapes/snapshot-copy.ts), `rows` of them, each a
   * record of its own, the newest at `newest`: only the newest lines the tail can keep are
   * scanned, from the end, and no record object is made for the others.
   */
  pushSnapshotLines(
    lines: Buffer,
    base: number,
    rows: number,
    newest: Offset,
  ): void {
    if (rows === 0) return
    const limit = shareBytes()
    const jsonStarts: number[] = []
    const lineEnds: number[] = []
    let lineEnd = lines.length - 1
    let bytes = 0
    while (jsonStarts.length < Math.min(rows, MAX_RECORDS)) {
      const start = lines.lastIndexOf(NEWLINE, lineEnd - 1) + 1
      const from = jsonStart(lines, start)
      bytes += lineEnd - from
      // The newest is always kept (keep()); past the share, no older one would be.
      if (jsonStarts.length > 0 && bytes > limit) break
      jsonStarts.push(from)
      lineEnds.push(lineEnd)
      lineEnd = start - 1
    }
    jsonStarts.reverse()
    lineEnds.reverse()
    const first = newest.op - rows + 1
    this.keep(lines, base, rows, jsonStarts, lineEnds, (i) => ({
      tx: newest.tx,
      op: first + i,
      last: true,
    }))
    this.newest = newest
  }

  /**
   * Keeps the newest of an append's `count` records that fit the share. The arrays describe
   * the newest of them (all, or a suffix): where each one's JSON starts in `lines`, and where
   * its line ends; `record(i)` says record i's offset (i counts from the append's first).
   */
  private keep(
    lines: Buffer,
    base: number,
    count: number,
    jsonStarts: number[],
    lineEnds: number[],
    record: (i: number) => { tx: bigint; op: number; last: boolean },
  ): void {
    // Of a large append, only its newest records that fit the share are copied: a snapshot's
    // piece or a spilled transaction's chunk can hold far more than the tail keeps.
    const limit = shareBytes()
    const n = jsonStarts.length
    const size = (k: number) =>
      (lineEnds[k] as number) - (jsonStarts[k] as number)
    let from = n - 1
    let adding = size(from)
    while (from > 0 && n - from < MAX_RECORDS) {
      if (adding + size(from - 1) > limit) break
      adding += size(from - 1)
      from--
    }
    // The tail is always the log's newest records without a gap: when only part of this
    // append is kept, nothing older stays.
    if (from > 0 || n < count) this.trim(-1, 0)
    else this.trim(limit - adding, MAX_RECORDS - count)
    this.reserve(adding)
    for (let k = from; k < n; k++) {
      const s = jsonStarts[k] as number
      const e = lineEnds[k] as number
      const { tx, op, last } = record(count - n + k)
      this.tx.push(tx)
      this.op.push(op)
      const lineEnd = base + e + 1
      this.ends.push(last ? lineEnd : -lineEnd)
      this.start.push(this.used)
      lines.copy(this.arena, this.used, s, e)
      this.used += e - s
      this.end.push(this.used)
    }
    this.bytes += adding
  }

  /**
   * Whether a reader going on from file position `pos` (a client at a snapshot chunk's end) is
   * served from memory: the oldest record held ends there or before, so every record that starts
   * at or past it is held.
   */
  coversPosition(pos: number): boolean {
    return this.count > 0 && Math.abs(this.ends[this.head] as number) <= pos
  }

  /**
   * The records after `after`, up to `visible` (published) and the end of their chunk: `cut`
   * says, for the position the answer starts at, where its chunk ends (chunks.ts).
   */
  read(after: Offset, visible: Offset, cut: ChunkCut): TailPage {
    // Found by halving, not by comparing from the start on every request.
    let lo = this.head
    let hi = this.tx.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (this.compareAt(mid, after) <= 0) lo = mid + 1
      else hi = mid
    }
    // covers() holds: the record at or before `after` is here, and the answer starts past it.
    return this.page(lo, after, visible, cut)
  }

  /** As read(), for the records that start at or past file position `pos` (coversPosition). */
  readFrom(pos: number, visible: Offset, cut: ChunkCut): TailPage {
    // Record i starts where record i - 1 ends; the head ends at or before `pos`.
    let lo = this.head + 1
    let hi = this.tx.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (Math.abs(this.ends[mid - 1] as number) < pos) lo = mid + 1
      else hi = mid
    }
    return this.page(lo, this.offsetAt(lo - 1), visible, cut)
  }

  /** From record `lo` (the one before it is held and read, at offset `before`) on. */
  private page(
    lo: number,
    before: Offset,
    visible: Offset,
    cut: ChunkCut,
  ): TailPage {
    const messages: string[] = []
    const from = Math.abs(this.ends[lo - 1] as number)
    const boundary = cut(from)
    let last = -1
    for (let i = lo; i < this.tx.length; i++) {
      if (this.compareAt(i, visible) > 0) break
      const s = this.start[i] as number
      const e = this.end[i] as number
      if (e > s) messages.push(this.arena.toString('utf8', s, e))
      last = i
      const end = this.ends[i] as number
      const lineEnd = Math.abs(end)
      // A transaction's end, or any record inside one past its first (op > 0): a resume
      // point read exactly, so a transaction larger than the threshold is cut as Electric cuts.
      if (lineEnd >= boundary && (end > 0 || (this.op[i] as number) > 0)) break
    }
    const lastOffset = last < 0 ? before : this.offsetAt(last)
    return {
      messages,
      lastOffset,
      atEnd: compareOffsets(lastOffset, visible) >= 0,
      from: last < 0 ? null : from,
    }
  }

  /** compareOffsets of record i's offset and `offset`. */
  private compareAt(i: number, offset: Offset): number {
    const tx = this.tx[i] as bigint
    if (tx !== offset.tx) return tx < offset.tx ? -1 : 1
    const op = this.op[i] as number
    if (op === offset.op) return 0
    return op < offset.op ? -1 : 1
  }

  private offsetAt(i: number): Offset {
    if (i === this.tx.length - 1 && this.newest) return this.newest
    return { tx: this.tx[i] as bigint, op: this.op[i] as number }
  }

  /** Drops the oldest records until at most `bytes` and `records` are left (never below 0). */
  private trim(bytes: number, records: number): void {
    while (this.count > 0 && (this.bytes > bytes || this.count > records)) {
      const i = this.head++
      this.bytes -= (this.end[i] as number) - (this.start[i] as number)
    }
    if (this.count === 0) {
      for (const list of this.lists()) list.length = 0
      this.head = 0
      this.used = 0
    } else if (this.head >= MAX_RECORDS) {
      // Records without bytes (a snapshot's end) never fill the arena, so reserve() would not
      // cut the arrays: they are cut here too.
      this.dropHead()
    }
  }

  /**
   * Room for `adding` more bytes at the arena's end: the records held are moved to its start
   * (and their arrays cut to them), and the arena replaced when they would still not fit, or
   * when it is far larger than what it holds (after one large record).
   */
  private reserve(adding: number): void {
    if (this.used + adding <= this.arena.length) return
    const from = this.count > 0 ? (this.start[this.head] as number) : this.used
    const kept = this.used - from
    const needed = kept + adding
    const target = this.arena
    // Some room past what is needed (up to 4 KiB): a busy tail moves its records this often.
    if (needed > this.arena.length || this.arena.length > 4 * needed + 4096)
      this.arena = Buffer.allocUnsafeSlow(
        needed + Math.min(Math.max(needed >> 1, 512), 4096),
      )
    target.copy(this.arena, 0, from, this.used)
    this.dropHead()
    for (let i = 0; i < this.start.length; i++) {
      this.start[i] = (this.start[i] as number) - from
      this.end[i] = (this.end[i] as number) - from
    }
    this.used = kept
  }

  /** Cuts the dropped records (before `head`) out of the arrays. */
  private dropHead(): void {
    for (const list of this.lists()) list.splice(0, this.head)
    this.head = 0
  }

  private lists(): Array<unknown[]> {
    return [this.tx, this.op, this.start, this.end, this.ends]
  }
}
