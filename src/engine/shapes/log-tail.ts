// A shape log's newest records in memory, for live readers: they ask for the last few records,
// and one further behind reads the file (log-store.ts). Bounded in bytes as well as records, and
// in bytes across all shapes: a thousand busy shapes with 1,024 records each held a million
// strings (about 250 MB) for the garbage collector to mark (its share of the engine's time went
// from 21% to 18.5%), and ten thousand with 16 KiB each would hold 160 MB.
//
// It holds no strings: each record is a range of the bytes its append wrote to the log (the log
// writer's buffer, outside the JavaScript heap), decoded when read. As strings, every record
// outlived two young-generation collections and was promoted, about a third of all that was
// promoted at 1,000 live shapes (bench:engine heap profile); each old-generation collection that
// followed cost the engine 50-100 ms of marking, and the slowest answers waited behind it.
import { compareOffsets, type Offset } from './offset.ts'

/** One record of a shape's log: a message's JSON at its offset (`last`: its transaction's last). */
export type LogRecord = { offset: Offset; json: string; last: boolean }

/** A record as held: its JSON is bytes start..end of the buffer its append wrote. */
type Held = { offset: Offset; bytes: Buffer; start: number; end: number }

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
/** A buffer past this size is not held whole for a few of its records (compact()). */
const COMPACT_ABOVE_BYTES = 8 * 1024

export class LogTail {
  private records: Held[] = []
  /** The JSON bytes the tail holds. */
  private bytes = 0
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

  get size(): { records: number; bytes: number } {
    return { records: this.records.length, bytes: this.bytes }
  }

  /** The oldest record held: a reader at or past it is served from memory. */
  get first(): Held | undefined {
    return this.records[0]
  }

  /**
   * `lines`: what the append wrote for these records, in order, one line each:
   * `<offset>\t<last>\t<json>\n` (JSON holds no raw tab or newline).
   */
  push(records: LogRecord[], lines: Buffer): void {
    // A transaction can hold far more records than the tail keeps: skip to its newest.
    const skip = Math.max(0, records.length - MAX_RECORDS)
    let pos = 0
    for (let i = 0; i < records.length; i++) {
      const lineEnd = lines.indexOf(NEWLINE, pos)
      if (i >= skip) {
        const start = lines.indexOf(TAB, lines.indexOf(TAB, pos) + 1) + 1
        const offset = (records[i] as LogRecord).offset
        this.records.push({ offset, bytes: lines, start, end: lineEnd })
        this.bytes += lineEnd - start
      }
      pos = lineEnd + 1
    }
    this.trim()
    this.compact(lines)
  }

  /**
   * Copies out what the tail keeps of a large buffer (a snapshot's piece, a spilled
   * transaction's chunk), so a few records kept do not hold the whole of it.
   */
  private compact(lines: Buffer): void {
    if (lines.length <= COMPACT_ABOVE_BYTES) return
    let first = this.records.length
    while (first > 0 && this.records[first - 1]?.bytes === lines) first--
    const kept = this.records.slice(first)
    const from = kept[0]?.start ?? 0
    const to = kept.at(-1)?.end ?? 0
    if (kept.length === 0 || (to - from) * 2 > lines.length) return
    const copy = Buffer.from(lines.subarray(from, to))
    for (const record of kept) {
      record.bytes = copy
      record.start -= from
      record.end -= from
    }
  }

  /**
   * The records after `after`, up to `visible` (published) and `end` (a chunk's end), and
   * whether they reach `visible`.
   */
  read(
    after: Offset,
    visible: Offset,
    end: Offset | null,
  ): { messages: string[]; lastOffset: Offset; atEnd: boolean } {
    const messages: string[] = []
    let lastOffset = after
    // Found by halving, not by comparing from the start on every request.
    let lo = 0
    let hi = this.records.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      const record = this.records[mid]
      if (record && compareOffsets(record.offset, after) <= 0) lo = mid + 1
      else hi = mid
    }
    for (let i = lo; i < this.records.length; i++) {
      const record = this.records[i] as Held
      if (compareOffsets(record.offset, visible) > 0) break
      if (record.end > record.start)
        messages.push(record.bytes.toString('utf8', record.start, record.end))
      lastOffset = record.offset
      if (end && compareOffsets(record.offset, end) >= 0) break
    }
    return {
      messages,
      lastOffset,
      atEnd: compareOffsets(lastOffset, visible) >= 0,
    }
  }

  /** Drops the oldest records past either bound, keeping at least the newest one. */
  private trim(): void {
    let drop = Math.max(0, this.records.length - MAX_RECORDS)
    let bytes = this.bytes
    const limit = shareBytes()
    for (let i = 0; i < drop; i++) bytes -= heldBytes(this.records[i])
    while (bytes > limit && drop < this.records.length - 1)
      bytes -= heldBytes(this.records[drop++])
    if (drop === 0) return
    this.records.splice(0, drop)
    this.bytes = bytes
  }
}

const heldBytes = (record: Held | undefined) =>
  record ? record.end - record.start : 0
