// Builds a shape log's compacted segment (compaction.ts's rule) off the replication path: one
// segment at a time across the engine, read and written in time slices, never inside the
// publish that asked for it. Not fsynced: a segment is derived (log-compaction.ts).
import {
  closeSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs'
import { TimeSlice } from '../time-slice.ts'
import { UpdateRuns } from './compaction.ts'
import { parseRecord } from './log-recovery.ts'
import { PRIVATE_FILE } from './private-files.ts'
import { SNAPSHOT_END, type Offset } from './offset.ts'

const READ_BLOCK = 256 * 1024
const WRITE_BLOCK = 256 * 1024
const INDEX_EVERY_BYTES = 64 * 1024
const NEWLINE = 10

/** A stretch of lines to compact: `from` to `to` of what `readAt` reads. */
export type Stretch = {
  readAt: (pos: number, size: number) => Buffer
  from: number
  to: number
}

/** A segment file: its size and a sparse index of its record ends, as the log's own. */
export type Segment = {
  size: number
  index: Array<{ offset: Offset; pos: number }>
}

/**
 * Writes the stretches' records, compacted, to `path`. Null when `cancelled` said so meanwhile
 * (the log closed): nothing is left behind.
 */
export async function buildSegment(
  stretches: Stretch[],
  path: string,
  cancelled: () => boolean,
): Promise<Segment | null> {
  const runs = new UpdateRuns()
  let count = 0
  const slice = new TimeSlice()
  const pass = async (
    each: (i: number, line: string) => void,
  ): Promise<boolean> => {
    count = 0
    for (const stretch of stretches)
      for (let pos = stretch.from; pos < stretch.to;) {
        // Whole lines only: the rest is read again with the next block, a larger one when a
        // line (one large row) is longer than a block.
        let size = Math.min(READ_BLOCK, stretch.to - pos)
        let block = stretch.readAt(pos, size)
        while (block.lastIndexOf(NEWLINE) < 0 && size < stretch.to - pos) {
          size = Math.min(size * 2, stretch.to - pos)
          block = stretch.readAt(pos, size)
        }
        const end = block.lastIndexOf(NEWLINE) + 1
        if (end === 0) return true
        for (let at = 0; at < end;) {
          const newline = block.indexOf(NEWLINE, at)
          each(count++, block.toString('utf8', at, newline))
          at = newline + 1
          if (slice.tick()) {
            await slice.pause()
            if (cancelled()) return false
          }
        }
        pos += end
      }
    return true
  }
  if (!(await pass((i, line) => runs.see(i, parseRecord(line)?.json ?? ''))))
    return null
  const tmp = `${path}.tmp`
  const fd = openSync(tmp, 'w', PRIVATE_FILE)
  const segment: Segment = {
    size: 0,
    index: [{ offset: SNAPSHOT_END, pos: 0 }],
  }
  let pending: Buffer[] = []
  let pendingBytes = 0
  let sinceIndex = 0
  const flush = () => {
    const bytes = Buffer.concat(pending)
    for (let at = 0; at < bytes.length;)
      at += writeSync(fd, bytes, at, bytes.length - at, segment.size + at)
    segment.size += bytes.length
    pending = []
    pendingBytes = 0
  }
  try {
    const done = await pass((i, line) => {
      const record = parseRecord(line)
      if (!record) return
      const json = runs.keep(i, record.json)
      if (json === null) return
      const tab = line.indexOf('\t', line.indexOf('\t') + 1)
      const out = Buffer.from(`${line.slice(0, tab + 1)}${json}\n`)
      pending.push(out)
      pendingBytes += out.length
      sinceIndex += out.length
      if (sinceIndex >= INDEX_EVERY_BYTES) {
        segment.index.push({
          offset: record.offset,
          pos: segment.size + pendingBytes,
        })
        sinceIndex = 0
      }
      if (pendingBytes >= WRITE_BLOCK) flush()
    })
    if (!done) {
      closeSync(fd)
      rmSync(tmp, { force: true })
      return null
    }
    flush()
    closeSync(fd)
  } catch (error) {
    closeSync(fd)
    rmSync(tmp, { force: true })
    throw error
  }
  renameSync(tmp, path)
  return segment
}

/** `size` bytes at `pos` of the file open as `fd`. */
export function readFileAt(fd: number, pos: number, size: number): Buffer {
  const block = Buffer.alloc(size)
  let filled = 0
  while (filled < size) {
    const n = readSync(fd, block, filled, size - filled, pos + filled)
    if (n === 0) break
    filled += n
  }
  return block.subarray(0, filled)
}

// One compaction at a time across the engine: the work is bounded whatever the shapes' count.
const queue: Array<() => Promise<void>> = []
let running = false

/** Runs `job` after the compactions queued before it. */
export function compactSoon(job: () => Promise<void>): void {
  queue.push(job)
  if (!running) void drain()
}

async function drain(): Promise<void> {
  running = true
  // Never inside the publish that queued it: that is the replication path.
  await new Promise<void>((resolve) => setImmediate(resolve))
  for (let job = queue.shift(); job; job = queue.shift())
    // A failed compaction leaves its log as it was: readers read the log itself.
    await job().catch(() => {})
  running = false
}
