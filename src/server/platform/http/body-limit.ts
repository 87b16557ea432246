// Caps every request body at its route's limit (limits.ts) while it streams: a body declaring
// too large a content-length is refused unread; any other body (chunked, or a stream) is
// counted as it is read and fails at the first chunk past the cap, which the app answers with
// 413. Nothing is buffered here, so /ingest still streams its batches through.
import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import { INGEST_PATH } from '../../../shared/analytics.ts'
import { LIVE_WATCH_PATH } from '../../../shared/live-watch.ts'
import {
  INGEST_BODY_LIMIT_BYTES,
  JSON_BODY_LIMIT_BYTES,
  LIVE_WATCH_BODY_LIMIT_BYTES,
  SUBSET_BODY_LIMIT_BYTES,
} from '../limits.ts'
import type { AppEnv } from './context.ts'
import { API_MOUNTS } from '../../../shared/api-routes.ts'

/** A body went past its cap while being read; app.onError answers it with 413. */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`request body over ${limit} bytes`)
  }
}

/** The error, or what it wraps (fetch reports a failed upload as its cause). */
export function bodyTooLarge(error: unknown): BodyTooLargeError | null {
  for (let e = error; e instanceof Error; e = e.cause)
    if (e instanceof BodyTooLargeError) return e
  return null
}

export const tooLargeResponse = (c: Context, limit: number) =>
  c.json(
    {
      message: `The request body is too large: at most ${limit} bytes are accepted.`,
    },
    413,
    // The rest of the body is not wanted: close rather than drain it for the next request.
    { connection: 'close' },
  )

const isIngest = (path: string) =>
  path === INGEST_PATH || path.startsWith(`${INGEST_PATH}/`)

function counted(body: ReadableStream<Uint8Array>, limit: number) {
  let size = 0
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength
        // Erroring cancels the source: nothing past this chunk is read.
        if (size > limit) controller.error(new BodyTooLargeError(limit))
        else controller.enqueue(chunk)
      },
    }),
  )
}

/** One middleware for the whole app, so no route is left without a cap. */
export const limitBodies = createMiddleware<AppEnv>(async (c, next) => {
  const body = c.req.raw.body
  if (!body) return next()
  const limit = isIngest(c.req.path)
    ? INGEST_BODY_LIMIT_BYTES
    : c.req.path === API_MOUNTS.shape
      ? SUBSET_BODY_LIMIT_BYTES
      : c.req.path === LIVE_WATCH_PATH
        ? LIVE_WATCH_BODY_LIMIT_BYTES
        : JSON_BODY_LIMIT_BYTES
  const declared = Number(c.req.header('content-length'))
  if (declared > limit) return tooLargeResponse(c, limit)
  // Counted even when the length is declared: an in-process caller's header need not be true.
  const init: RequestInit & { duplex: 'half' } = {
    body: counted(body, limit),
    duplex: 'half',
  }
  c.req.raw = new Request(c.req.raw, init)
  await next()
})
