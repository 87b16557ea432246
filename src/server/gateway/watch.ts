// POST /v1/watch: the live requests of a signed-in browser profile, waited on as one
// (engine/http/watch.ts). The answer names those the server would answer now; the browser
// sends just those. So the dashboard holds one long-poll however many shapes it follows,
// and its clicks never queue behind its own live syncs for a free connection (HTTP/1.1 allows
// a browser 6 per host).
//
// Each request is read and authorized as its own route would: a dashboard shape by the
// session (routes.ts), an app's /v1/shape by its source's secret, a source's public status by
// nobody. One the server will not wait on (refused, malformed, a source held by another
// server) is answered ready at once, and its own answer tells the client why; a dashboard
// shape no longer the user's is answered gone, so the client ends it without asking into a
// 404 (which every browser logs as an error).
import { Hono, type Context } from 'hono'
import { LONG_POLL_MS } from '../../engine/http/serve-shape.ts'
import {
  parseProtocol,
  type ProtocolErrors,
} from '../../engine/http/request.ts'
import {
  whichWouldAnswer,
  wouldAnswerNow,
  type WatchedRequest,
} from '../../engine/http/watch.ts'
import { idSchema } from '../../shared/entities.ts'
import {
  liveWatchBodySchema,
  type LiveWatchAnswer,
} from '../../shared/live-watch.ts'
import { requireUser } from '../auth/middleware.ts'
import { sessionIsLive } from '../auth/sessions.ts'
import type { AppEnv } from '../http/context.ts'
import { readJson } from '../http/json.ts'
import { sameOriginOnly } from '../http/security.ts'
import { sourceStatus } from '../status/routes.ts'
import { userShapes } from './routes.ts'
import { watchedSourceShape } from './source-shapes.ts'

const STATUS_PREFIX = '/api/public/source-status/'

/** A dashboard shape its route would answer 404: not (or no longer) the user's. */
const GONE = 'gone'

/** How the server would serve one live request; null if it would not simply wait. */
async function watched(
  c: Context<AppEnv>,
  path: string,
): Promise<WatchedRequest | typeof GONE | null> {
  const url = new URL(path, 'http://watch.invalid')
  const query = url.searchParams
  if (url.pathname === '/v1/shape') return watchedSourceShape(c, query)
  const database = c.var.deps.shapes
  if (!database) return null
  let definition = null
  if (url.pathname.startsWith(STATUS_PREFIX)) {
    const id = idSchema.safeParse(url.pathname.slice(STATUS_PREFIX.length))
    if (id.success) definition = sourceStatus(id.data)
  } else if (url.pathname.startsWith('/v1/')) {
    const resolve = userShapes[url.pathname.slice('/v1'.length)]
    if (!resolve) return null
    definition = await resolve(c, query)
    if (!definition) return GONE
  }
  if (!definition) return null
  const errors: ProtocolErrors = {}
  const request = parseProtocol(query, errors)
  return Object.keys(errors).length > 0
    ? null
    : { database, definition, request }
}

export const watchRoutes = new Hono<AppEnv>().post(
  '/',
  sameOriginOnly,
  requireUser,
  async (c) => {
    const body = await readJson(c, liveWatchBodySchema)
    if (!body.success) return body.response
    const { sessionId } = c.var.user
    const open = c.var.sessionRequests.track(sessionId, c.req.raw.signal)
    try {
      const requests = await Promise.all(
        body.data.requests.map((path) => watched(c, path)),
      )
      const waitable = requests.filter((r) => r !== null && r !== GONE)
      // One the server will not wait on is to be sent (or ended) at once: no waiting.
      const waits = waitable.length === requests.length
      const answered = waits
        ? await whichWouldAnswer(waitable, LONG_POLL_MS, open.signal)
        : waitable.map(wouldAnswerNow)
      // After a wait the session may have ended (logout, expiry): nothing more for this
      // browser, whose requests would be refused anyway.
      if (waits && !(await sessionIsLive(c.var.deps.db, sessionId)))
        return c.json({ message: 'Not signed in' }, 401)
      const ready: number[] = []
      const gone: number[] = []
      let next = 0
      requests.forEach((request, i) => {
        if (request === GONE) gone.push(i)
        else if (request === null || answered[next++]) ready.push(i)
      })
      const answer: LiveWatchAnswer = { ready, gone }
      return c.json(answer, 200, { 'cache-control': 'private, no-store' })
    } finally {
      open.release()
    }
  },
)
