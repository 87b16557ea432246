// The engine on its own: one database as an Electric-compatible HTTP service.
import { timingSafeEqual } from 'node:crypto'
import { Hono, type Context } from 'hono'
import type { ShapeDatabase } from '../database.ts'
import type { MaxConcurrentRequests } from './admission.ts'
import { deleteShape } from './delete-shape.ts'
import { requestParts } from './node-request.ts'
import { givenSecret, unauthorized } from './secret-param.ts'
import { EXPOSED_HEADERS } from './responses.ts'
import { serveShapeQuery, type QueryTuning } from './serve-shape.ts'

export const SHAPE_PATH = '/v1/shape'

export type EngineAppOptions = {
  database: ShapeDatabase
  /** When set, every request must carry `?secret=` (or `?api_secret=`) with this value. */
  secret?: string
  allowShapeDeletion?: boolean
  /** The log chunk size of answers (serve-shape.ts, CHUNK_BYTES by default). */
  chunkBytes?: number
  /** SSE streams' length and keep-alive interval (serve-sse.ts, Electric's by default). */
  sseTimeoutMs?: number
  keepAliveMs?: number
  /** How long a live request waits for a change (serve-shape.ts, Electric's 20 s by default). */
  longPollMs?: number
  /**
   * Shape requests in flight past which more are refused with 503 (admission.ts; Electric's
   * ELECTRIC_MAX_CONCURRENT_REQUESTS and its defaults). Counted by the Node listener
   * (node-listener.ts), which sees each response close; the app alone does not count.
   */
  maxConcurrentRequests?: MaxConcurrentRequests
  /**
   * Seconds caches may keep non-live answers and serve them stale (Electric's
   * ELECTRIC_CACHE_MAX_AGE and ELECTRIC_CACHE_STALE_AGE: 60 and 300 by default).
   */
  cacheMaxAge?: number
  cacheStaleAge?: number
  /** Answers that reach the tip kept this long instead (answer-headers.ts; unset: Electric's). */
  tipMaxAge?: number
}

export function sameSecret(
  given: string | undefined,
  expected: string,
): boolean {
  const a = Buffer.from(given ?? '')
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

export const tuningOf = (options: EngineAppOptions): QueryTuning => ({
  chunkBytes: options.chunkBytes,
  sseTimeoutMs: options.sseTimeoutMs,
  keepAliveMs: options.keepAliveMs,
  longPollMs: options.longPollMs,
  cacheMaxAge: options.cacheMaxAge,
  cacheStaleAge: options.cacheStaleAge,
  tipMaxAge: options.tipMaxAge,
})

export function createEngineApp(options: EngineAppOptions): Hono {
  const { database } = options
  const app = new Hono()
  app.use('*', async (c, next) => {
    await next()
    // Shape answers (200, 304) carry these already (serveShapeQuery's `cors`): reading
    // c.res.headers would rebuild a Headers object for every live answer, which at a thousand
    // live shapes cost the engine a good part of its time.
    const status = c.res.status
    if (c.req.path === SHAPE_PATH && (status === 200 || status === 304)) return
    c.res.headers.set('access-control-allow-origin', '*')
    c.res.headers.set('access-control-expose-headers', EXPOSED_HEADERS)
  })
  app.options('*', (c) =>
    c.body(null, 204, {
      'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
      'access-control-allow-headers': '*',
      'access-control-max-age': '86400',
    }),
  )
  app.get('/v1/health', (c) => {
    // Released for idleness is active too, as Electric answers it: the next request resumes.
    const active = database.status === 'active' || database.status === 'idle'
    return c.json({ status: active ? 'active' : 'waiting' }, active ? 200 : 202)
  })
  app.use(SHAPE_PATH, async (c, next) => {
    const query = new URL(c.req.url).searchParams
    if (options.secret && !sameSecret(givenSecret(query), options.secret))
      return unauthorized()
    return next()
  })
  const tuning = tuningOf(options)
  const serve = (c: Context) =>
    serveShapeQuery(database, requestParts(c), c.req.raw, tuning)
  app.get(SHAPE_PATH, serve)
  // Subsets too long for a URL: the shape in the query, the subset in a JSON body.
  app.post(SHAPE_PATH, serve)
  app.delete(SHAPE_PATH, (c) =>
    deleteShape(
      database,
      new URL(c.req.url).searchParams,
      options.allowShapeDeletion === true,
    ),
  )
  return app
}
