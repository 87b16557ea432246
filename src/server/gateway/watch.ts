// POST /v1/watch: the live requests of a signed-in browser profile, waited on as one
// (engine/http/watch.ts). The answer names those the server would answer now; the browser
// sends just those. So the dashboard holds one long-poll however many shapes it follows,
// and its clicks never queue behind its own live syncs for a free connection (HTTP/1.1 allows
// a browser 6 per host).
//
// Each request is read and authorized as its own route would: a dashboard shape by the
// session (routes.ts), an app's /v1/shape by its source's secret, a source's public status by
// nobody (so a visitor, signed out, watches too). One the server will not wait on (refused, malformed, a source held by another
// server) is answered ready at once, and its own answer tells the client why; a dashboard
// shape no longer the user's is answered gone, so the client ends it without asking into a
// 404 (which every browser logs as an error).
import { Hono, type Context } from 'hono'
import {
  LONG_POLL_MS,
  parseProtocol,
  type ProtocolErrors,
  whichWouldAnswer,
  wouldAnswerNow,
  type WatchedRequest,
} from '../../engine/index.ts'
import { idSchema } from '../../shared/entities.ts'
import {
  liveWatchBodySchema,
  type LiveWatchAnswer,
} from '../../shared/live-watch.ts'
import { optionalUser } from '../auth/middleware.ts'
import { sessionIsLive } from '../auth/sessions.ts'
import type { AppEnv } from '../platform/http/context.ts'
import { readJson } from '../platform/http/json.ts'
import { sameOriginOnly } from '../platform/http/security.ts'
import { sourceStatus } from '../sources/status-routes.ts'
import { userShapes } from './routes.ts'
import { watchedSourceShape } from './source-shapes.ts'
import { API_MOUNTS } from '../../shared/api-routes.ts'

const STATUS_PREFIX = `${API_MOUNTS.sourceStatus}/`

const signedIn = (c: Context<AppEnv>) =>
  (c.get('user') as AppEnv['Variables']['user'] | undefined) !== undefined

/** A dashboard shape its route would answer 404: not (or no longer) the user's. */
const GONE = 'gone'

/** How the server would serve one live request; null if it would not simply wait. */
async function watched(
  c: Context<AppEnv>,
  path: string,
): Promise<WatchedRequest | typeof GONE | null> {
  const url = new URL(path, 'http://watch.invalid')
  const query = url.searchParams
  if (url.pathname === API_MOUNTS.shape) return watchedSourceShape(c, query)
  const database = c.var.deps.shapes
  let definition = null
  if (url.pathname.startsWith(STATUS_PREFIX)) {
    const id = idSchema.safeParse(url.pathname.slice(STATUS_PREFIX.length))
    if (id.success) definition = sourceStatus(id.data)
  } else if (url.pathname.startsWith(`${API_MOUNTS.gateway}/`)) {
    const resolve = userShapes[url.pathname.slice(API_MOUNTS.gateway.length)]
    // Signed out: its own request gets the 401 that says so.
    if (!resolve || !signedIn(c)) return null
    const shape = await resolve(c, query)
    if (!shape) return GONE
    definition = shape.definition
  }
  if (!definition) return null
  const errors: ProtocolErrors = {}
  const request = parseProtocol(query, errors)
  return Object.keys(errors).length > 0
    ? null
    : { database, definition, request }
}

/**
 * The answer to one watch, or null when the session ended while it waited. A request the wait
 * made ready is read again: the change that woke it may be the one that took it from the
 * user (a source deleted wakes its event log with the deletes), and its own request would then
 * be answered 404.
 */
async function answerWatch(
  c: Context<AppEnv>,
  paths: string[],
  signal: AbortSignal,
  sessionId: string | null,
): Promise<LiveWatchAnswer | null> {
  const requests = await Promise.all(paths.map((path) => watched(c, path)))
  const waitable = requests.filter((r) => r !== null && r !== GONE)
  // One the server will not wait on is to be sent (or ended) at once: no waiting.
  const waits = waitable.length === requests.length
  const answered = waits
    ? await whichWouldAnswer(waitable, LONG_POLL_MS, signal)
    : waitable.map(wouldAnswerNow)
  // After a wait the session may have ended (logout, expiry): nothing more for this browser,
  // whose requests would be refused anyway.
  if (waits && sessionId && !(await sessionIsLive(c.var.deps.db, sessionId)))
    return null
  const answer: LiveWatchAnswer = { ready: [], gone: [] }
  let next = 0
  for (const [i, request] of requests.entries()) {
    if (request === GONE) answer.gone.push(i)
    else if (request === null) answer.ready.push(i)
    else if (answered[next++]) {
      const still = waits ? await watched(c, paths[i] ?? '') : request
      answer[still === GONE ? 'gone' : 'ready'].push(i)
    }
  }
  return answer
}

export const watchRoutes = new Hono<AppEnv>().post(
  '/',
  sameOriginOnly,
  optionalUser,
  async (c) => {
    const body = await readJson(c, liveWatchBodySchema)
    if (!body.success) return body.response
    // A visitor (the public status page) watches too; a user's watch ends with the session.
    const sessionId = signedIn(c) ? c.var.user.sessionId : null
    const open = sessionId
      ? c.var.sessionRequests.track(sessionId, c.req.raw.signal)
      : { signal: c.req.raw.signal, release: () => {} }
    try {
      const answer = await answerWatch(
        c,
        body.data.requests,
        open.signal,
        sessionId,
      )
      if (!answer) return c.json({ message: 'Not signed in' }, 401)
      return c.json(answer, 200, { 'cache-control': 'private, no-store' })
    } finally {
      open.release()
    }
  },
)
