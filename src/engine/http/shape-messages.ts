// The Shape Inspector's read: the messages a client reading one live shape from an offset
// receives, answer by answer as serve-shape.ts cuts them (same chunks, the same up-to-date at
// the end of an answer that reaches the log's end, none on a first answer), joined and paged.
// Read only: it never creates, waits on or marks a shape as read, and stops at a number of
// messages and a time, so one request never holds the event loop for long.
import { messageText } from './answer-body.ts'
import type { ShapeDatabase } from '../database.ts'
import {
  BEFORE_ALL,
  formatOffset,
  parseOffset,
  type Offset,
} from '../storage/offset.ts'
import type { Shape } from '../shapes/shape.ts'
import { withinLog } from './out-of-bounds.ts'
import { upToDate } from './responses.ts'
import { CHUNK_BYTES } from './serve-shape.ts'

/** One answer a client gets: where it asked from, the answer's offset and its body's size. */
type InspectedAnswer = {
  /** The offset the client asks with. */
  offset: string
  /** The answer's `electric-offset`: where the client asks next. */
  next_offset: string
  /** The body's size in bytes, as sent. */
  bytes: number
  /** How many messages it holds (all of it, though a page may end inside it). */
  messages: number
}

export type ShapeMessages =
  | {
      kind: 'page'
      /** The protocol's messages, parsed, in order. */
      messages: unknown[]
      /** What to ask next; null once the page holds the up-to-date (the client caught up). */
      nextOffset: string | null
      /**
       * The protocol offset the client stands at: after the page's last whole answer (at the
       * end, the offset a live client holds and asks again with).
       */
      offset: string
      answers: InspectedAnswer[]
    }
  | { kind: 'unknown_shape' }
  | { kind: 'not_ready' }
  | { kind: 'bad_offset'; message: string }

/**
 * A page that ends inside an answer goes on from `<answer's offset>+<messages read of it>`:
 * no protocol offset lies inside a snapshot chunk, and the messages of a change carry none.
 */
const CONTINUATION = /^(-1|\d+_(?:\d+|inf))\+([1-9]\d{0,8})$/

export type InspectOptions = {
  limit: number
  /** A page ends after this much time, at an answer's end (a snapshot chunk is read whole). */
  maxMs?: number
  chunkBytes?: number
}

// Every read is synchronous: the page stops here (at an answer's end) so that one request holds
// the event loop, and every other client of the server, for no longer than this and a chunk.
const MAX_MS = 50

type Start = { offset: Offset; skip: number }

function parseStart(text: string): Start | null {
  const continued = CONTINUATION.exec(text)
  const offset = parseOffset(continued?.[1] ?? text)
  if (!offset) return null
  return { offset, skip: continued ? Number(continued[2]) : 0 }
}

/**
 * Where a client asking with `offset` reads after: `-1` before all, and `<lsn>_0` past that
 * whole transaction, as serve-shape.ts reads them.
 */
const readAfter = (offset: Offset): Offset =>
  offset.tx < 0n
    ? BEFORE_ALL
    : offset.tx > 0n && offset.op === 0
      ? { tx: offset.tx, op: Infinity }
      : offset

/** The answer a client asking with `offset` gets, as its messages (JSON texts). */
function answerAt(
  database: ShapeDatabase,
  shape: Shape,
  offset: Offset,
  chunkBytes: number,
): { messages: string[]; next: Offset; upToDate: boolean } {
  const before = offset.tx < 0n
  const page = shape.log.read(readAfter(offset), chunkBytes)
  const messages = page.messages.map(messageText)
  // A shared shape's first answer never says up-to-date (serve-shape.ts says why).
  const isUpToDate = !before && page.atEnd
  if (isUpToDate) {
    const lsn =
      database.globalLsn > page.lastOffset.tx
        ? database.globalLsn
        : page.lastOffset.tx
    messages.push(upToDate(lsn))
  }
  return { messages, next: page.lastOffset, upToDate: isUpToDate }
}

/** The messages a client reading shape `handle` from `offsetText` receives: a page of them. */
export function shapeMessages(
  database: ShapeDatabase,
  handle: string,
  offsetText: string,
  options: InspectOptions,
): ShapeMessages {
  const start = parseStart(offsetText)
  if (!start)
    return {
      kind: 'bad_offset',
      message: 'must be -1 or <tx>_<op>, as the shape protocol writes offsets',
    }
  const shape = database.byHandle(handle)
  if (!shape || shape.failure) return { kind: 'unknown_shape' }
  if (!shape.ready) return { kind: 'not_ready' }
  if (
    start.offset.tx >= 0n &&
    !withinLog(shape, start.offset, database.globalLsn)
  )
    return { kind: 'bad_offset', message: 'out of bounds for this shape' }
  const chunkBytes = options.chunkBytes ?? CHUNK_BYTES
  const deadline = performance.now() + (options.maxMs ?? MAX_MS)
  const messages: string[] = []
  const answers: InspectedAnswer[] = []
  let at = start.offset
  let skip = start.skip
  let next: string | null
  for (;;) {
    const answer = answerAt(database, shape, at, chunkBytes)
    const body = `[${answer.messages.join(',')}]`
    answers.push({
      offset: formatOffset(at),
      next_offset: formatOffset(answer.next),
      bytes: Buffer.byteLength(body),
      messages: answer.messages.length,
    })
    const room = options.limit - messages.length
    const rest = answer.messages.slice(skip)
    messages.push(...rest.slice(0, room))
    if (rest.length > room) {
      next = `${formatOffset(at)}+${skip + room}`
      break
    }
    at = answer.next
    skip = 0
    if (answer.upToDate) {
      next = null
      break
    }
    next = formatOffset(at)
    if (messages.length >= options.limit || performance.now() >= deadline) break
  }
  return {
    kind: 'page',
    messages: messages.map((text) => JSON.parse(text) as unknown),
    nextOffset: next,
    offset: formatOffset(at),
    answers,
  }
}
