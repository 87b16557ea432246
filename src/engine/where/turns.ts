// Large clauses from requests are compiled one at a time, each step (parsing, then analysing
// and compiling) in an event-loop turn of its own. A step is bounded by the limits (clause
// length, expressions, list items), but requests arriving together used to run their steps
// back to back in one turn: three subsets with 10,000-item IN lists held the loop over 100 ms
// (bench:engine --subset-in). Small clauses, most shapes', compile at once as before: their
// steps take microseconds, and a turn each would only delay them.

/** Clause and params characters past which compiling takes turns. */
export const LARGE_CLAUSE_CHARS = 1_024

let queue: Promise<void> = Promise.resolve()

/** Resolves in a later event-loop turn: timers, I/O and other requests run first. */
export const nextTurn = () =>
  new Promise<void>((resolve) => setImmediate(resolve))

/**
 * Runs `work` once every large compile queued before it has finished; `work` calls
 * `nextTurn()` before each step.
 */
export async function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const before = queue
  let done = () => {}
  queue = new Promise<void>((resolve) => (done = resolve))
  try {
    await before
    return await work()
  } finally {
    done()
  }
}
