// The cache headers and ETags of a shape answer (serve-shape.ts): how long each kind of answer
// may be reused, and when a client's If-None-Match makes it a 304.
import { formatOffset, type Offset } from '../storage/offset.ts'

/**
 * Names an answer by shape, request offset and response offset: the same three always carry the
 * same messages. An answer without changes also carries a monotonic part, so a cache can never
 * revalidate an empty live answer and must hold and collapse the live request instead.
 */
export function etag(
  handle: string,
  requested: Offset | 'now',
  answered: Offset,
  hasData: boolean,
): string {
  const from = requested === 'now' ? 'now' : formatOffset(requested)
  const unique = hasData ? '' : `:${process.hrtime.bigint()}`
  return `"${handle}:${from}:${formatOffset(answered)}${unique}"`
}

/** `If-None-Match` is a list; quotes and weak markers are dropped as Electric does. */
export function matches(ifNoneMatch: string | null | undefined, tag: string) {
  if (!ifNoneMatch) return false
  const bare = tag.slice(1, -1)
  return ifNoneMatch
    .split(',')
    .some(
      (one) => one.trim().replace(/^W\//, '').replace(/^"|"$/g, '') === bare,
    )
}

/**
 * How long a response may be reused. The first chunk and middle chunks never change; a live
 * answer changes with the cursor. A non-live answer that reaches the tip describes a moving
 * point, kept one second where Electric keeps it 60: a copy carries an old
 * global_last_seen_lsn, and multi-shape clients (pglite-sync) hold newer changes of their other
 * shapes until this one's next answer, up to a long-poll (20 s). Yet it must be cacheable: a
 * cache that locks requests to collapse them (nginx's proxy_cache_lock) lets the clients of an
 * uncacheable URL through one at a time, and a thousand clients connecting took 36 s.
 */
export function cacheControl(response: {
  live: boolean
  before: boolean
  upToDate: boolean
}): string {
  if (response.live) return 'public, max-age=5, stale-while-revalidate=5'
  if (response.before)
    return 'public, max-age=604800, s-maxage=3600, stale-while-revalidate=2629746'
  if (response.upToDate) return 'public, max-age=1'
  return 'public, max-age=60, stale-while-revalidate=300'
}
