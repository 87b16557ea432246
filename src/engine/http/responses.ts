// The answers every part of the shape protocol shares: errors in Electric's format, the 409
// that sends clients to a shape's successor, the live cursor and the up-to-date message.
import type { ProtocolErrors } from './protocol-errors.ts'

const CURSOR_EPOCH_MS = Date.UTC(2024, 9, 9)

export const EXPOSED_HEADERS =
  'electric-cursor,electric-handle,electric-has-data,electric-offset,electric-schema,electric-snapshot,electric-up-to-date,retry-after'

/** What a shape answer to another origin's app carries (`cors` on the serve options). */
export const corsHeaders = (
  cors: boolean | undefined,
): Record<string, string> =>
  cors
    ? {
        'access-control-allow-origin': '*',
        'access-control-expose-headers': EXPOSED_HEADERS,
      }
    : { 'access-control-expose-headers': EXPOSED_HEADERS }

/** An error (or a 409, whose caller sets its own cache headers): never kept by any cache. */
export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      // CDNs that honour surrogate-control over cache-control must not keep errors either.
      'surrogate-control': 'no-store',
      'access-control-expose-headers': EXPOSED_HEADERS,
      ...headers,
    },
  })
}

/** Electric's 400 body: the errors of each parameter, by name. */
export const invalidBody = <E extends ProtocolErrors>(errors: E) => ({
  message: 'Invalid request',
  errors,
})

export const invalid = (errors: ProtocolErrors) =>
  jsonResponse(400, invalidBody(errors))

/**
 * A 409 redirects every client of a rotated shape to its successor: a cache may keep it a
 * minute so a rotation does not send them all to the origin at once. A signed-in user's shape
 * is never cached (the same URL names another user's shape for another session).
 */
export function mustRefetch(handle: string, perUser: boolean | undefined) {
  const response = jsonResponse(
    409,
    [{ headers: { control: 'must-refetch' } }],
    {
      'electric-handle': handle,
    },
  )
  if (!perUser) {
    response.headers.set('cache-control', 'public, max-age=60, must-revalidate')
    response.headers.delete('surrogate-control')
  }
  return response
}

/**
 * The live cache-buster: the next boundary of the long-poll interval, in seconds since
 * 2024-10-09, so the live requests of one interval share a URL and a cache collapses them. A
 * client already at (or past) that boundary gets 1..3600 s beyond its own cursor, so its next
 * URL is one no cache has answered yet. Electric draws that at random; here it follows from the
 * answer (`seed`: the shape and the offset answered), so two answers to one request name the
 * same next URL: when a cache lets a request through to the origin twice, its clients still
 * meet again on one URL instead of splitting into as many as there were answers (10,000
 * clients through nginx went from about one origin request per change to a hundred).
 */
export function nextCursor(
  previous: string | null,
  longPollMs: number,
  seed: string,
): string {
  const interval = Math.max(1, Math.floor(longPollMs / 1000))
  const next =
    Math.ceil((Date.now() - CURSOR_EPOCH_MS) / 1000 / interval) * interval
  const before =
    previous !== null && /^\d{1,15}$/.test(previous) ? Number(previous) : 0
  if (next > before) return String(next)
  return String(before + 1 + (fnv1a(`${seed}:${before}`) % 3600))
}

/** FNV-1a, 32 bits: a cheap, stable spread of a string (no secrecy needed). */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}

let lastUpToDate = { lsn: -1n, json: '' }

/** The up-to-date control message, claiming everything up to `lsn` was sent. */
export function upToDate(lsn: bigint): string {
  // Made once per LSN: every answer of a wake-up carries the same one.
  if (lsn !== lastUpToDate.lsn)
    lastUpToDate = {
      lsn,
      json: JSON.stringify({
        headers: {
          control: 'up-to-date',
          global_last_seen_lsn: lsn.toString(),
        },
      }),
    }
  return lastUpToDate.json
}
