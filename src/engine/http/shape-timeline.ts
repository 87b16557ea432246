// The Shape Inspector's timeline: the points of one live shape's log a client can read from,
// each with the offset that reads it (the Inspector's messages, shape-messages.ts): the start
// (and the rotation that made this handle, if one did), the snapshot's end, and each
// transaction since. Read only and bounded like the messages: a walk of the log that stops at
// a number of points and a time, saying so.
import { messageText } from './answer-body.ts'
import type { ShapeDatabase } from '../database.ts'
import { BEFORE_ALL, formatOffset, type Offset } from '../storage/offset.ts'
import { CHUNK_BYTES } from './serve-shape.ts'

type TimelinePoint =
  | {
      kind: 'start'
      offset: '-1'
      /** The rotation this handle replaced: when (ms since the epoch) and why. */
      rotation: { at: number; cause: string } | null
    }
  | { kind: 'snapshot_end'; offset: string; rows: number }
  | {
      kind: 'transaction'
      /** The offset a client asks with to receive this transaction first. */
      offset: string
      lsn: string
      txids: number[]
      /** Its messages in this shape: changes, and the control messages among them. */
      messages: number
    }

export type ShapeTimeline =
  | { kind: 'timeline'; points: TimelinePoint[]; truncated: boolean }
  | { kind: 'unknown_shape' }
  | { kind: 'not_ready' }

export type TimelineOptions = { maxPoints?: number; maxMs?: number }

const AFTER_SNAPSHOT: Offset = { tx: 0n, op: Infinity }
const MAX_POINTS = 500
// As the messages' (shape-messages.ts): the walk is synchronous and holds the event loop.
const MAX_MS = 50

type Headers = { lsn?: string; txids?: number[]; control?: string }

/** The snapshot's end closes its chunk; a row may hold the same words, so its headers tell. */
function isSnapshotEnd(json: string | undefined): boolean {
  if (json === undefined || !json.startsWith('{"headers"')) return false
  return (
    (JSON.parse(json) as { headers: Headers }).headers.control ===
    'snapshot-end'
  )
}

/** The first `maxPoints` points of shape `handle`'s timeline, oldest first. */
export function shapeTimeline(
  database: ShapeDatabase,
  handle: string,
  options: TimelineOptions = {},
): ShapeTimeline {
  const shape = database.byHandle(handle)
  if (!shape || shape.failure) return { kind: 'unknown_shape' }
  if (!shape.ready) return { kind: 'not_ready' }
  const maxPoints = options.maxPoints ?? MAX_POINTS
  const deadline = performance.now() + (options.maxMs ?? MAX_MS)
  const rotation = shape.facts().lastRotation
  const points: TimelinePoint[] = [{ kind: 'start', offset: '-1', rotation }]
  // The snapshot, in the chunks a client reads it in: its end closes one (shape-log.ts).
  let at: Offset = BEFORE_ALL
  let rows = 0
  for (;;) {
    // A snapshot too big to walk in one call's time: only its start is shown.
    if (performance.now() >= deadline)
      return { kind: 'timeline', points, truncated: true }
    const page = shape.log.read(at, CHUNK_BYTES)
    at = page.lastOffset
    const tail = page.messages.at(-1)
    const ended = tail !== undefined && isSnapshotEnd(messageText(tail))
    rows += page.messages.length - (ended ? 1 : 0)
    if (ended || page.atEnd || page.messages.length === 0) break
  }
  const snapshotEnd = formatOffset(at)
  points.push({ kind: 'snapshot_end', offset: snapshotEnd, rows })
  // Then record by record (a chunk of one byte ends at each record): a record whose lsn
  // differs from the one before starts a transaction, read from where the record before it
  // ended. Past every snapshot record, in the log's own numbering rather than the snapshot's
  // chunks, which depend on the chunk size; the first transaction is read from the
  // snapshot's end, as a client reads it.
  at = AFTER_SNAPSHOT
  let lsn: string | null = null
  for (;;) {
    if (points.length > maxPoints || performance.now() >= deadline)
      return {
        kind: 'timeline',
        points: points.slice(0, maxPoints),
        truncated: true,
      }
    const page = shape.log.read(at, 1)
    if (page.messages.length === 0) break
    const from = lsn === null ? snapshotEnd : formatOffset(at)
    for (const message of page.messages) {
      const headers =
        (JSON.parse(messageText(message)) as { headers?: Headers }).headers ??
        {}
      const last = points[points.length - 1]
      if (headers.lsn && headers.lsn !== lsn) {
        lsn = headers.lsn
        points.push({
          kind: 'transaction',
          offset: from,
          lsn,
          txids: headers.txids ?? [],
          messages: 1,
        })
      } else if (last?.kind === 'transaction') last.messages++
    }
    at = page.lastOffset
    if (page.atEnd) break
  }
  return { kind: 'timeline', points, truncated: false }
}
