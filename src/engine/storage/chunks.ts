// Where a shape log's answers end (Electric's chunks), decided from byte positions alone. A chunk
// ends at the first transaction end at or past the next multiple of the threshold (or the first
// record past a transaction's first there: an exact resume point, so a transaction larger than
// the threshold is cut inside, as Electric cuts it), counted from the log's start in the snapshot
// and from the snapshot's end after it (the snapshot's end always ends one). A reader resuming
// anywhere inside a chunk is at a position in the same multiple, so every reader is cut at the
// same places and a cache shares the answers; and no index is kept per threshold, so any
// threshold down to a few kB cuts within a record or two of it, at no cost to appends (an index
// every 10 kB would cost memory in proportion to every log's length).
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
      (Math.floor(from / threshold) + 1) * threshold,
    )
  const past = from - snapshot.end
  return snapshot.end + (Math.floor(past / threshold) + 1) * threshold
}

// Snapshot offsets are numbered as Electric numbers them: the answer that holds the snapshot's
// chunk k ends at `0_k`, so a snapshot of one chunk ends at `0_0`, and `0_k` resumes after that
// chunk. The number is the chunk's start position over the threshold (consecutive unless one
// row is larger than the threshold), so the log's records keep their own offsets on disk.

/** A client's offset that names a snapshot chunk: `0_<k>` (`0_inf` is past the snapshot). */
export const namesSnapshotChunk = (offset: Offset): boolean =>
  offset.tx === 0n && Number.isFinite(offset.op)

/** The offset clients see for an answer within the snapshot that starts at byte `from`. */
export const snapshotChunkOffset = (
  from: number,
  threshold: number,
): Offset => ({
  tx: 0n,
  op: Math.floor(from / threshold),
})

/**
 * Where a reader after snapshot chunk `k` goes on: with the records that start at or past this
 * position (chunk k ends at the first record end at or past it).
 */
export const snapshotChunkResume = (
  k: number,
  threshold: number,
  snapshot: SnapshotBounds,
): number => Math.min((k + 1) * threshold, snapshot.end)

/**
 * The number of the snapshot's last chunk, the one that holds its end record: every chunk
 * before it ends at a row's end no later than the end record's start (`rows`), in the bucket
 * of `rows` at the latest, and the chunk that starts in that bucket reaches past it.
 */
export const lastSnapshotChunk = (
  snapshot: SnapshotBounds,
  threshold: number,
): Offset => ({ tx: 0n, op: Math.floor(snapshot.rows / threshold) })
