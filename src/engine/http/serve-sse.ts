// Live mode as server-sent events (`live=true&live_sse=true`): one long response whose events
// are the log's messages, each a `data:` frame, with an up-to-date after every batch that
// reaches the tip, `: keep-alive` comments while nothing happens, and an end after the SSE
// timeout or when the shape is rotated (the client reconnects and then gets its 409).
import { messageText } from './answer-body.ts'
import type { ShapeDatabase } from '../database.ts'
import { compareOffsets, formatOffset, type Offset } from '../storage/offset.ts'
import type { Shape, WaitSignal } from '../shapes/shape.ts'
import { corsHeaders, nextCursor, upToDate } from './responses.ts'

/** Electric's: a stream ends after a minute, and a cache may hold it just under that. */
const SSE_TIMEOUT_MS = 60_000
/** Electric's: a comment when nothing was sent for this long, so proxies keep the stream. */
const KEEP_ALIVE_MS = 21_000

export type SseOptions = {
  database: ShapeDatabase
  shape: Shape
  /** What the client sent, for the headers. */
  requested: Offset
  /** Where reading starts (past the request's whole transaction). */
  after: Offset
  cursor: string | null
  chunkBytes: number
  longPollMs: number
  signal?: WaitSignal
  timeoutMs?: number
  keepAliveMs?: number
  cors?: boolean
}

export function serveSse(options: SseOptions): Response {
  const { shape, database, signal } = options
  const timeoutMs = options.timeoutMs ?? SSE_TIMEOUT_MS
  const keepAliveMs = options.keepAliveMs ?? KEEP_ALIVE_MS
  const deadline = Date.now() + timeoutMs
  const encoder = new TextEncoder()
  let after = options.after
  let lastSent = Date.now()
  let ended = false
  // A client of the shape while the stream is open (its facts' `clients`).
  shape.markRead(0)
  shape.streams(1)
  const end = () => {
    if (ended) return
    ended = true
    shape.streams(-1)
  }

  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      while (!ended) {
        // Rotated or failed: end the stream as Electric does; the client's next request
        // names the old handle and gets the 409 that sends it to the new shape.
        if (shape.failure || signal?.aborted || Date.now() >= deadline) {
          end()
          controller.close()
          return
        }
        const page = shape.log.read(after, options.chunkBytes)
        if (compareOffsets(page.lastOffset, after) > 0) {
          after = page.lastOffset
          const frames = page.messages.map((m) => `data: ${messageText(m)}\n\n`)
          // Everything up to the global LSN has reached this shape's log by now: the client
          // resumes from `<lsn>_0` (read as past that whole transaction), missing nothing.
          if (page.atEnd) {
            const lsn =
              database.globalLsn > after.tx ? database.globalLsn : after.tx
            frames.push(`data: ${upToDate(lsn)}\n\n`)
          }
          const bytes = encoder.encode(frames.join(''))
          shape.markRead(bytes.length, false)
          lastSent = Date.now()
          controller.enqueue(bytes)
          return
        }
        if (Date.now() - lastSent >= keepAliveMs) {
          lastSent = Date.now()
          controller.enqueue(encoder.encode(': keep-alive\n\n'))
          return
        }
        const wait = Math.min(
          keepAliveMs - (Date.now() - lastSent),
          deadline - Date.now(),
        )
        shape.streamWaits(1)
        try {
          await shape.waitForChange(Math.max(wait, 0), signal)
        } finally {
          shape.streamWaits(-1)
        }
      }
    },
    cancel() {
      end()
    },
  })

  return new Response(stream, {
    status: 200,
    headers: {
      'content-type': 'text/event-stream',
      connection: 'keep-alive',
      ...corsHeaders(options.cors),
      'cache-control': `public, max-age=${Math.max(1, Math.floor(timeoutMs / 1000) - 1)}`,
      'electric-handle': shape.handle,
      'electric-offset': formatOffset(options.requested),
      'electric-cursor': nextCursor(
        options.cursor,
        options.longPollMs,
        `${shape.handle}:${formatOffset(options.requested)}`,
      ),
    },
  })
}
