// Where a shape log's answers end (Electric's chunks), decided from byte positions alone. A chunk
// ends at the first transaction end at or past the next multiple of the threshold, counted from
// the log's start in the snapshot and from the snapshot's end after it (the snapshot's end always
// ends one). A reader resuming anywhere inside a chunk is at a position in the same multiple, so
// every reader is cut at the same places and a cache shares the answers; and no index is kept
// per threshold, so any threshold down to a few kB cuts within a record or two of it, at no cost
// to appends (an index every 10 kB would cost memory in proportion to every log's length).

/** Where the snapshot's records end (`rows`: before its end record) and the log's part begins. */
export type SnapshotBounds = { rows: number; end: number }

/**
 * The position the chunk that starts at byte `from` ends at or past: the chunk ends after the
 * first record of a transaction's end (or a point inside a transaction appended in parts) whose
 * line ends there or later.
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
