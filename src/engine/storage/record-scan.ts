// Reading a shape log's records from a file (the log, or a compacted segment of it): from an
// index point before where the answer starts, line by line with byte positions, up to the end
// of the answer's chunk (chunks.ts). log-store.ts answers with it whatever its tail lacks.
//
// The records' JSON stays bytes: views of the blocks read, which the answer is joined from
// (answer-body.ts). Decoded to strings, a 10 MiB snapshot chunk was read into the heap twice
// (its lines, then the answer's text) and encoded back into bytes to be sent: a third of
// reading a 1M-row shape from its log, and most of the engine's heap growth meanwhile
// (bench:engine --only snapshot).
import type { ChunkCut, TailPage } from './log-tail.ts'
import { parseRecordBytes } from './log-recovery.ts'
import { compareOffsets, type Offset } from './offset.ts'

const READ_BLOCK = 256 * 1024
const NEWLINE = 10

/** Where an answer starts: after an offset, or with the records at or past a byte position. */
export type ScanStart = { after: Offset } | { pos: number }

/** A point of a sparse index: the record at `offset` ends at byte `pos`. */
type Point = { offset: Offset; pos: number }

export type ScanSource = {
  readAt(pos: number, size: number): Buffer
  index: Point[]
  /** Where the readable records end. */
  end: number
  /**
   * Whether the record at `offset` (`last`: its transaction's last), whose line ends at
   * `lineEnd`, ends the answer, the chunk's `boundary` given.
   */
  endsChunk(
    offset: Offset,
    last: boolean,
    lineEnd: number,
    boundary: number,
  ): boolean
}

/** The records of `source` from `start` to the end of their chunk; `atEnd`: the source's end. */
export function scanRecords(
  source: ScanSource,
  start: ScanStart,
  cut: ChunkCut,
): TailPage {
  const point = source.index[pointBefore(source.index, start)] as Point
  const messages: Buffer[] = []
  let lastOffset = 'after' in start ? start.after : point.offset
  let from: number | null = null
  let boundary = Infinity
  // The file position of data[0], and where the last line looked at ends.
  let dataPos = point.pos
  let readPos = point.pos
  let consumed = point.pos
  let data: Buffer = Buffer.alloc(0)
  scan: while (readPos < source.end) {
    const size = Math.min(READ_BLOCK, source.end - readPos)
    const block = source.readAt(readPos, size)
    readPos += size
    data = data.length > 0 ? Buffer.concat([data, block]) : block
    let at = 0
    for (;;) {
      const newline = data.indexOf(NEWLINE, at)
      if (newline < 0) break
      const lineStart = dataPos + at
      const record = parseRecordBytes(data, at, newline)
      at = newline + 1
      consumed = dataPos + at
      if (!record) continue
      if (from === null) {
        const before =
          'after' in start
            ? compareOffsets(record.offset, start.after) <= 0
            : lineStart < start.pos
        if (before) continue
        from = lineStart
        boundary = cut(from)
      }
      if (record.json.length > 0) messages.push(record.json)
      lastOffset = record.offset
      if (source.endsChunk(record.offset, record.last, consumed, boundary))
        break scan
    }
    data = data.subarray(at)
    dataPos += at
  }
  return { messages, lastOffset, atEnd: consumed >= source.end, from }
}

/** The last index point at or before where a read starts (the index's first is before all). */
function pointBefore(index: Point[], start: ScanStart): number {
  let lo = 0
  let hi = index.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    const point = index[mid] as Point
    const at =
      'after' in start
        ? compareOffsets(point.offset, start.after) <= 0
        : point.pos <= start.pos
    if (at) lo = mid
    else hi = mid - 1
  }
  return lo
}
