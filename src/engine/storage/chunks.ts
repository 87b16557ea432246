// Where a shape log's answers end (Electric's chunks), decided from byte positions alone. A chunk
// ends at the first transaction end at or past the next multiple of the threshold (or the first
// record past a transaction's first there: an exact resume point, so a transaction larger than
// the threshold is cut inside, as Electric cuts it), counted from the log's start in the snapshot
// and from the snapshot's end after it (the snapshot's end always ends one). The snapshot's first
// chunks are smaller, a ramp up to the threshold (below). A reader resuming anywhere inside a
// chunk is at a position in the same bucket, so every reader is cut at the same places and a
// cache shares the answers; and no index is kept per threshold, so any threshold down to a few
// kB cuts within a record or two of it, at no cost to appends (an index every 10 kB would cost
// memory in proportion to every log's length).
import type { Offset } from './offset.ts'

/** Where the snapshot's records end (`rows`: before its end record) and the log's part begins. */
export type SnapshotBounds = { rows: number; end: number }

/**
 * The position the chunk that starts at byte `from` ends at or past: the chunk ends after the
 * first record that ends a transaction, or follows its first record, whose line ends there or
 * later.
 */
export function chunkBoundary(
  from: number,
  threshold: number,
  snapshot: SnapshotBounds | null,
): number {
  if (!snapshot) return (Math.floor(from / threshold) + 1) * threshold
  if (from < snapshot.end)
    return Math.min(
      snapshot.end,
      bucketEnd(snapshotBucket(from, threshold), threshold),
    )
  const past = from - snapshot.end
  return snapshot.end + (Math.floor(past / threshold) + 1) * threshold
}

/** While a snapshot is still being read: its end is not known, and lies past every chunk. */
export const SNAPSHOT_IN_PROGRESS: SnapshotBounds = {
  rows: Infinity,
  end: Infinity,
}

// A snapshot's first chunks ramp up: they end at the threshold over 2^r, 2^(r-1), ..., 2, then
// at its multiples, where the first is at least FIRST_CHUNK_BYTES. A client's first answer is
// then a few hundred rows, read, sent and parsed in moments, not 10 MiB (about 30,000 rows of
// 300 bytes: seconds before the first row shows, since a client parses an answer whole), and
// the snapshot still goes in answers of the threshold's size once under way. Thresholds below
// twice that ramp not at all (Electric's test setup's 10,000 bytes).
const FIRST_CHUNK_BYTES = 64 * 1024

/** How many ramp chunks a threshold has. */
function rampSteps(threshold: number): number {
  let steps = 0
  while (Math.floor(threshold / 2 ** (steps + 1)) >= FIRST_CHUNK_BYTES) steps++
  return steps
}

/** The number of the snapshot chunk (bucket) that byte position `pos` falls in. */
function snapshotBucket(pos: number, threshold: number): number {
  const steps = rampSteps(threshold)
  if (pos >= threshold) return steps + Math.floor(pos / threshold)
  let k = 0
  while (pos >= bucketEnd(k, threshold)) k++
  return k
}

/** Where snapshot bucket `k` ends. */
function bucketEnd(k: number, threshold: number): number {
  const steps = rampSteps(threshold)
  return k <= steps
    ? Math.floor(threshold / 2 ** (steps - k))
    : (k - steps + 1) * threshold
}

// Snapshot offsets are numbered as Electric numbers them: the answer that holds the snapshot's
// chunk k ends at `0_k`, so a snapshot of one chunk ends at `0_0`, and `0_k` resumes after that
// chunk. The number is the bucket (ramp chunk, then multiple of the threshold) the chunk starts
// in (consecutive unless one row is larger than a bucket), so the log's records keep their own
// offsets on disk.

/** A client's offset that names a snapshot chunk: `0_<k>` (`0_inf` is past the snapshot). */
export const namesSnapshotChunk = (offset: Offset): boolean =>
  offset.tx === 0n && Number.isFinite(offset.op)

/** The offset clients see for an answer within the snapshot that starts at byte `from`. */
export const snapshotChunkOffset = (
  from: number,
  threshold: number,
): Offset => ({
  tx: 0n,
  op: snapshotBucket(from, threshold),
})

/**
 * Where a reader after snapshot chunk `k` goes on: with the records that start at or past this
 * position (chunk k ends at the first record end at or past it).
 */
export const snapshotChunkResume = (
  k: number,
  threshold: number,
  snapshot: SnapshotBounds,
): number => Math.min(bucketEnd(k, threshold), snapshot.end)

/**
 * The number of the snapshot's last chunk, the one that holds its end record: every chunk
 * before it ends at a row's end no later than the end record's start (`rows`), in the bucket
 * of `rows` at the latest, and the chunk that starts in that bucket reaches past it.
 */
export const lastSnapshotChunk = (
  snapshot: SnapshotBounds,
  threshold: number,
): Offset => ({ tx: 0n, op: snapshotBucket(snapshot.rows, threshold) })
