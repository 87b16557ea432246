// Many live requests waited on at once: a client that follows many shapes sends their live
// requests here as one, learns which of them would be answered now, and sends only those. A
// browser over HTTP/1.1 opens at most 6 connections per host; one long-poll per shape would
// hold them all and queue every other request behind a poll's timeout.
import type { ShapeDatabase } from '../database.ts'
import type { ShapeDefinition } from '../shapes/definition.ts'
import { CHUNK_BYTES } from './serve-shape.ts'
import type { Shape, WaitSignal, Waiter } from '../shapes/shape.ts'
import type { ShapeRequest } from './request.ts'

/** One live request as the engine would serve it. */
export type WatchedRequest = {
  database: ShapeDatabase
  definition: ShapeDefinition
  request: ShapeRequest
}

/**
 * The shape a live request would wait on, or null when serving it would not wait: it is not a
 * live request at the log's end of its shape's current handle (a snapshot, a 409, a failure, a
 * shape still being made, or changes after its offset). The same reading as serveShape's.
 */
function waitsOn({
  database,
  definition,
  request,
}: WatchedRequest): Shape | null {
  if (!request.live || request.sse || request.subset) return null
  if (request.offset === 'now' || request.offset.tx < 0n) return null
  if (request.handle === null) return null
  const shape = database.liveShapeFor(request.handle, definition)
  if (!shape || !shape.ready || shape.failure) return null
  // `<lsn>_0` means past that whole transaction (serveShape's `after`).
  const after =
    request.offset.tx > 0n && request.offset.op === 0
      ? { tx: request.offset.tx, op: Infinity }
      : request.offset
  // The server's shapes are answered in chunks of the default size, which numbers snapshot
  // offsets (storage/chunks.ts).
  return shape.log.caughtUp(after, CHUNK_BYTES) ? shape : null
}

/** Whether serving the request now would answer without waiting. */
export const wouldAnswerNow = (request: WatchedRequest): boolean =>
  waitsOn(request) === null

/**
 * Waits until at least one of the requests would be answered without waiting, the time is up,
 * or the signal aborts; then says, per request, whether it would be. One small waiter parked on
 * every shape watched, released from all of them at the first wake-up.
 */
export function whichWouldAnswer(
  requests: WatchedRequest[],
  timeoutMs: number,
  signal?: WaitSignal,
): Promise<boolean[]> {
  const now = () => requests.map(wouldAnswerNow)
  const shapes = new Set<Shape>()
  for (const request of requests) {
    const shape = waitsOn(request)
    if (!shape) return Promise.resolve(now())
    shapes.add(shape)
  }
  if (shapes.size === 0 || signal?.aborted) return Promise.resolve(now())
  return new Promise((resolve) => {
    let settled = false
    // A watch waits on many shapes, for its own timeout: never counted as stalled.
    const waiter: Waiter = { wake: done, due: Infinity }
    const timer = setTimeout(done, timeoutMs)
    signal?.addEventListener('abort', done)
    for (const shape of shapes) shape.park(waiter)
    // Woken by each shape that changes: answered at the first.
    function done() {
      if (settled) return
      settled = true
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      for (const shape of shapes) shape.unpark(waiter)
      resolve(now())
    }
  })
}
