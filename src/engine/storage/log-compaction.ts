// A shape log's compacted segment (compaction.ts, made by compactor.ts): when to make one, and
// reading it. It stands for the log past its snapshot up to a transaction end; readers whose
// offset falls there read it instead of the log, which itself is never rewritten. The segment
// is derived: never fsynced, and dropped when the log is reopened (the next compaction makes it
// again), so the journal and recovery know only the log file.
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { flat } from '../flat.ts'
import { chunkBoundary, type SnapshotBounds } from './chunks.ts'
import {
  buildSegment,
  compactSoon,
  readFileAt,
  type Segment,
} from './compactor.ts'
import { fdCache } from './fd-cache.ts'
import type { TailPage } from './log-tail.ts'
import { SNAPSHOT_END, compareOffsets, type Offset } from './offset.ts'
import { scanRecords } from './record-scan.ts'

/**
 * A log is compacted once what it gained since its snapshot or last compaction passes a
 * quarter of what a new client reads before it (the snapshot and the segment), and 64 KiB: a
 * new client then reads at most about 1.25 times that, and each compaction's work (reading
 * both) is paid for by at least a quarter as many bytes of changes. The floor keeps small busy
 * shapes from compacting every few changes.
 */
const SHARE = 4
const MIN_BYTES = 64 * 1024
const PREFIX = 'compacted.'

/** What the compaction of a log sees of it. */
export type CompactedLog = {
  readonly dir: string
  readonly isClosed: boolean
  /** Where the snapshot ends; null until it is complete. */
  snapshotBounds(): SnapshotBounds | null
  /** The published end: its byte position and offset. */
  readonly publishedPos: number
  readonly lastOffset: Offset
  /** `size` bytes of the log at `pos`, within what was appended. */
  readAt(pos: number, size: number): Buffer
}

type Made = Segment & { path: string; to: number; endOffset: Offset }

export class LogCompaction {
  private segment: Made | null = null
  private running = false
  private generation = 0

  constructor(private readonly log: CompactedLog) {}

  /** Deletes the segments a log in `dir` kept from before: nothing vouches for them now. */
  static dropStale(dir: string): void {
    for (const name of readdirSync(dir))
      if (name.startsWith(PREFIX)) rmSync(join(dir, name), { force: true })
  }

  /** After a publish: queues a compaction when the log grew far enough past its last one. */
  consider(): void {
    const snapshot = this.log.snapshotBounds()
    if (!snapshot || this.running || this.log.isClosed) return
    const from = this.segment?.to ?? snapshot.end
    const before = snapshot.end + (this.segment?.size ?? 0)
    const gained = this.log.publishedPos - from
    if (gained < Math.max(MIN_BYTES, before / SHARE)) return
    this.running = true
    compactSoon(() =>
      this.compact().finally(() => {
        this.running = false
        this.consider()
      }),
    )
  }

  /** Whether a reader after `after` reads the segment (`after` at or past the snapshot). */
  covers(after: Offset): boolean {
    return (
      this.segment !== null &&
      compareOffsets(after, SNAPSHOT_END) >= 0 &&
      compareOffsets(after, this.segment.endOffset) < 0
    )
  }

  /** Whether there is a segment (it starts at the snapshot's end). */
  get made(): boolean {
    return this.segment !== null
  }

  /**
   * The segment's records after `after` (covers() or the snapshot's end), in chunks of its own
   * bytes. A compacted transaction may have lost its last record, so a chunk may end inside one,
   * but never at op 0 (`<lsn>_0` means past a whole transaction); the segment's end ends one.
   * `atEnd`: nothing was published after it. `left`: what remains of the chunk when the segment
   * ended first (0 otherwise): the answer goes on in the log for that many bytes.
   */
  read(
    after: Offset,
    threshold: number,
    published: Offset,
  ): TailPage & { left: number } {
    const segment = this.segment as Made
    const page = scanRecords(
      {
        readAt: (pos, size) => readFileAt(fdCache.use(segment.path), pos, size),
        index: segment.index,
        end: segment.size,
        endsChunk: (op, last, lineEnd, boundary) =>
          lineEnd >= segment.size || (lineEnd >= boundary && (last || op > 0)),
      },
      { after },
      (from) => chunkBoundary(from, threshold, null),
    )
    const left =
      page.atEnd && page.from !== null
        ? chunkBoundary(page.from, threshold, null) - segment.size
        : 0
    return {
      ...page,
      atEnd: compareOffsets(page.lastOffset, published) >= 0,
      left: Math.max(0, left),
    }
  }

  /** The log is closing: the segment's descriptor goes (its file goes with the directory). */
  close(): void {
    if (this.segment) fdCache.close(this.segment.path)
  }

  /**
   * Compacts the log past its snapshot up to what is published now: the last segment and what
   * followed it, into a new segment that replaces it.
   */
  private async compact(): Promise<void> {
    const snapshot = this.log.snapshotBounds()
    if (!snapshot || this.log.isClosed) return
    const to = this.log.publishedPos
    const endOffset = this.log.lastOffset
    const previous = this.segment
    const path = flat(join(this.log.dir, `${PREFIX}${++this.generation}`))
    const stretches = [
      {
        readAt: (pos: number, size: number) => this.log.readAt(pos, size),
        from: previous?.to ?? snapshot.end,
        to,
      },
    ]
    if (previous)
      stretches.unshift({
        readAt: (pos, size) =>
          readFileAt(fdCache.use(previous.path), pos, size),
        from: 0,
        to: previous.size,
      })
    const segment = await buildSegment(stretches, path, () => this.log.isClosed)
    if (!segment) return
    if (this.log.isClosed) {
      rmSync(path, { force: true })
      return
    }
    // Reads are synchronous: none is under way in the old segment as it is replaced.
    this.segment = { ...segment, path, to, endOffset }
    if (previous) {
      fdCache.close(previous.path)
      rmSync(previous.path, { force: true })
    }
  }
}
