// What a team's API token may call: its team's sources and setup links over REST, and the
// team itself (so a script can find its team id), nothing else. An allow-list, not a deny-list:
// a route added later is closed to tokens until it is named here. Each route still checks
// that the source or team is the token's own (auth/viewer.ts); this list only says which
// routes a token may try. Pure, so it is unit tested without a server.
const ID = '[^/]+'
const ROUTES: [method: string, path: RegExp][] = [
  // The token's one team (GET /teams lists only it), for `sluice teams list`.
  ['GET', /^\/api\/v1\/teams\/?$/],
  ['GET', new RegExp(`^/api/v1/teams/${ID}$`)],
  // Setup links.
  ['GET', new RegExp(`^/api/v1/teams/${ID}/source-setup-forms/?$`)],
  ['POST', new RegExp(`^/api/v1/teams/${ID}/source-setup-forms/?$`)],
  ['DELETE', new RegExp(`^/api/v1/teams/${ID}/source-setup-forms/${ID}$`)],
  // Sources: list, create, get, its secret, rotate it, restart or clear the cache, delete.
  ['GET', /^\/api\/v1\/sources\/?$/],
  ['PUT', /^\/api\/v1\/sources\/?$/],
  ['GET', new RegExp(`^/api/v1/sources/${ID}$`)],
  ['GET', new RegExp(`^/api/v1/sources/${ID}/secret$`)],
  ['POST', new RegExp(`^/api/v1/sources/${ID}/rotate-secret$`)],
  ['DELETE', new RegExp(`^/api/v1/sources/${ID}/previous-secret$`)],
  ['POST', new RegExp(`^/api/v1/sources/${ID}/restart$`)],
  // The Shape Inspector's read of a live shape's messages.
  ['GET', new RegExp(`^/api/v1/sources/${ID}/shapes/${ID}/messages$`)],
  ['GET', new RegExp(`^/api/v1/sources/${ID}/shapes/${ID}/timeline$`)],
  ['DELETE', new RegExp(`^/api/v1/sources/${ID}$`)],
  // A source's figures: its live shapes, points over time, invalidation log.
  ['GET', new RegExp(`^/api/v1/sources/${ID}/shapes$`)],
  ['GET', new RegExp(`^/api/v1/sources/${ID}/metrics$`)],
  ['GET', new RegExp(`^/api/v1/sources/${ID}/invalidations$`)],
]

/** Whether a token may call `method` on `path` (the request's path, without its query). */
export function tokenMayCall(method: string, path: string): boolean {
  // HEAD is answered by the GET route (Hono), so it is allowed where GET is.
  const asked = method === 'HEAD' ? 'GET' : method
  return ROUTES.some(([m, pattern]) => m === asked && pattern.test(path))
}
