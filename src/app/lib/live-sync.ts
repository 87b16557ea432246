// How every live shape sync of the app asks the server: one retry policy, and one
// connectivity gate shared by all streams. A request that cannot reach the server marks it
// unreachable at once; the streams' retries then wait for the health probe instead of each
// hammering a server that is gone, and all resume together once it answers (after a 503: once
// it is ready). A live request is sent only once the profile's one watch says it would be
// answered (live-watch.ts): the browser's few connections stay free for everything else.
import {
  reportUnreachable,
  reportUnready,
  whenReachable,
} from './connectivity.ts'
import { isWatchable, whenWorthAsking } from './live-watch.ts'

/**
 * Backoff starts at 100 ms, grows by 1.3 up to 10 s. The Electric client retries 429
 * and 5xx (and failed fetches) with it, and hands other 4xx to the stream's onError.
 */
export const LIVE_SYNC_BACKOFF = {
  initialDelay: 100,
  maxDelay: 10_000,
  multiplier: 1.3,
}

/**
 * The fetch every live sync uses: sends the session cookie, waits while the server is gone,
 * and holds a live request until the server has something for it.
 */
export async function liveSyncFetch(
  input: RequestInfo | URL,
  init?: RequestInit,
): Promise<Response> {
  const url = watchable(input)
  const held = url ? await whenWorthAsking(url, init?.signal) : null
  // What its route would answer, without asking into a 404 the browser logs as an error.
  if (held?.gone) return notFound()
  try {
    await whenReachable(init?.signal)
    const response = await fetch(input, { ...init, credentials: 'include' })
    // The server is there and cannot answer yet: the stream's retry waits for its readiness.
    if (response.status === 503) reportUnready()
    return response
  } catch (error) {
    // A TypeError: no answer at all. An abort is the stream stopping, not the server.
    if (!init?.signal?.aborted) reportUnreachable()
    throw error
  } finally {
    // Its headers are in: the body of a live answer is one small page.
    held?.sent()
  }
}

/** A live request on this page's origin (live-watch.ts), or null. */
function watchable(input: RequestInfo | URL): URL | null {
  if (typeof location === 'undefined') return null
  const url = new URL(
    input instanceof Request ? input.url : String(input),
    location.href,
  )
  return isWatchable(url) ? url : null
}

const notFound = () =>
  new Response(JSON.stringify({ message: 'Not found' }), {
    status: 404,
    headers: { 'content-type': 'application/json' },
  })

/** The options of a live ShapeStream at `url`, for the status page and the synced store. */
export function liveShape(url: string) {
  return {
    url,
    backoffOptions: LIVE_SYNC_BACKOFF,
    fetchClient: liveSyncFetch,
  }
}
