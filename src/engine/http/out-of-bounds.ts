// Offsets past the end of a shape's log. Electric (1.4.8 on) holds such a request for half a
// long-poll, as its client may only be a little ahead (a restart, a handover: the changes it
// saw are on their way again), and answers it once the log gets there; otherwise a 400.
import type { Shape, WaitSignal } from '../shapes/shape.ts'
import { compareOffsets, type Offset } from '../storage/offset.ts'

/** Electric's words for it, under `offset` in its usual 400. */
export const OUT_OF_BOUNDS = 'out of bounds for this shape'

/**
 * The global LSN moves without this shape publishing (other tables' transactions): while
 * waiting for it, the bound is checked again this often.
 */
const RECHECK_MS = 250

/**
 * Whether the log holds `requested` (a `<tx>_<op>` of this shape). Besides offsets up to the
 * log's end, `<lsn>_0` up to the global LSN is one the engine gave out: an SSE client resumes
 * from the up-to-date's global_last_seen_lsn, which other tables move past this log's end.
 */
export function withinLog(
  shape: Shape,
  requested: Offset,
  globalLsn: bigint,
): boolean {
  if (compareOffsets(requested, shape.lastOffset) <= 0) return true
  return requested.op === 0 && requested.tx <= globalLsn
}

/**
 * Waits up to `holdMs` for the log to reach `requested`: true once it does, false when the time
 * is up, the client went, or the shape ended (the caller tells which).
 */
export async function reachesLog(
  shape: Shape,
  requested: Offset,
  globalLsn: () => bigint,
  holdMs: number,
  signal?: WaitSignal,
): Promise<boolean> {
  const deadline = performance.now() + holdMs
  while (!withinLog(shape, requested, globalLsn())) {
    const left = deadline - performance.now()
    if (left <= 0 || shape.failure || signal?.aborted) return false
    await shape.waitForChange(Math.min(left, RECHECK_MS), signal)
  }
  return true
}
