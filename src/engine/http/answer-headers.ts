// The cache headers and ETags of a shape answer (serve-shape.ts): how long each kind of answer
// may be reused, and when a client's If-None-Match makes it a 304. Electric's rules, and the
// one the engine keeps for its own clients (`tipMaxAge`, below).
import { formatOffset, type Offset } from '../storage/offset.ts'

/** How long non-live answers may be reused, in seconds (serve-shape.ts's options). */
export type CacheAges = {
  /** Electric's ELECTRIC_CACHE_MAX_AGE: every non-live answer but a shape's first. */
  maxAge: number
  /** Electric's ELECTRIC_CACHE_STALE_AGE: how long a cache may serve it stale while it asks. */
  staleAge: number
  /**
   * When set, an answer that reaches the tip is kept this long instead, and never served
   * stale (Electric has no such setting; the gateway's and dashboard's mounts set it).
   */
  tipMaxAge?: number
}

/** Electric's defaults of ELECTRIC_CACHE_MAX_AGE and ELECTRIC_CACHE_STALE_AGE. */
export const CACHE_MAX_AGE = 60
export const CACHE_STALE_AGE = 300

/**
 * The tip's age where Sluice's own clients read (the gateway's and dashboard's mounts). A copy
 * of an answer at the tip carries an old global_last_seen_lsn, and multi-shape clients
 * (pglite-sync) hold newer changes of their other shapes until this one's next answer, up to a
 * long-poll (20 s): kept a second, never served stale. Yet it must be cacheable: a cache that
 * locks requests to collapse them (nginx's proxy_cache_lock) lets the clients of an
 * uncacheable URL through one at a time, and a thousand clients connecting took 36 s.
 */
export const HOSTED_TIP_MAX_AGE = 1

/**
 * Names an answer by shape, request offset and response offset, as Electric does: the same
 * three always carry the same changes. Two kinds get more:
 * - an answer without changes (offset=now, a long-poll that timed out) a monotonic part, so a
 *   cache can never revalidate an empty live answer and must hold and collapse the live
 *   request instead (Electric's rule);
 * - with a pinned tip (`lsn`), an up-to-date answer the LSN its up-to-date claims: a 304 then
 *   never hands a client an old global_last_seen_lsn, which the pinned tip exists to avoid.
 */
export function etag(
  handle: string,
  requested: Offset | 'now',
  answered: Offset,
  noChanges: boolean,
  lsn: bigint | null,
): string {
  const from = requested === 'now' ? 'now' : formatOffset(requested)
  const unique = noChanges
    ? `:${process.hrtime.bigint()}`
    : lsn !== null
      ? `:${lsn}`
      : ''
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
 * How long a response may be reused, as Electric says: a shape's first answer (offset=-1) a
 * week in a browser and an hour in a shared cache, a live answer 5 s (its URL changes with the
 * cursor), any other the configured ages, whether it reaches the tip or not. A pinned tip
 * (`tipMaxAge`) keeps answers that reach the tip, offset=now's included, that long instead.
 */
export function cacheControl(
  response: { live: boolean; before: boolean; upToDate: boolean },
  ages: CacheAges,
): string {
  if (response.live) return 'public, max-age=5, stale-while-revalidate=5'
  if (response.before)
    return 'public, max-age=604800, s-maxage=3600, stale-while-revalidate=2629746'
  if (response.upToDate && ages.tipMaxAge !== undefined)
    return `public, max-age=${ages.tipMaxAge}`
  return `public, max-age=${ages.maxAge}, stale-while-revalidate=${ages.staleAge}`
}
