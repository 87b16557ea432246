// The apps' shape endpoint: GET /v1/shape?source_id=..&source_secret=..&table=.. plus the
// Electric protocol parameters, served by the engine running that source. Apps call it from
// their own origins, so it answers CORS; the secret, not a session, is the credential: under
// the dashboard's name `source_secret`, Electric Cloud's `secret`, or Electric's legacy
// `api_secret`, so a proxy written for Electric Cloud changes only its origin's host. The
// secret a rotation replaced opens the source too until its grace ends. DELETE (when
// ALLOW_SHAPE_DELETION is on) and POST (a subset snapshot in a JSON body) take the same
// credentials as a read.
import { createHash, timingSafeEqual } from 'node:crypto'
import { Hono, type Context } from 'hono'
import {
  deleteShape,
  requestParts,
  parseDefinition,
  parseProtocol,
  type ProtocolErrors,
  EXPOSED_HEADERS,
  HOSTED_TIP_MAX_AGE,
  jsonResponse,
  serveShapeQuery,
  type WatchedRequest,
} from '../../engine/index.ts'
import { idSchema } from '../../shared/entities.ts'
import type { AppEnv } from '../platform/http/context.ts'
import { proxyShape } from '../cluster/forward.ts'

/**
 * The names a secret may come under, the first given judged alone (as Electric judges `secret`
 * over `api_secret`); the engine sees none of them, nor `source_id`.
 */
const SECRET_NAMES = ['secret', 'source_secret', 'api_secret']
const CREDENTIALS = ['source_id', ...SECRET_NAMES]

const unauthorized = () => jsonResponse(401, { message: 'Unauthorized' })

const notActive = () =>
  jsonResponse(
    503,
    { message: 'The source is not active yet' },
    { 'retry-after': '5' },
  )

// Digests have one length, so the comparison takes the same time whatever was sent.
const digest = (text: string) => createHash('sha256').update(text).digest()

/**
 * The source the credentials open, or null: unknown, deleted and wrong look the same. The
 * secret given is compared with the current one and, within its grace, the previous one, each
 * comparison taking the same time whatever was sent.
 */
async function authorize(
  c: Context<AppEnv>,
  query: URLSearchParams,
): Promise<string | null> {
  const id = idSchema.safeParse(query.get('source_id'))
  const { rows } = await c.var.deps.db.query<{
    current: string
    previous: string | null
  }>(
    `select source_secret as current,
            case when previous_secret_valid_until > now() then previous_source_secret end
              as previous
       from sources where id = $1 and deleted_at is null`,
    [id.success ? id.data : null],
  )
  const row = rows[0]
  if (!row || !id.success) return null
  const name = SECRET_NAMES.find((n) => query.has(n))
  const given = digest(name ? (query.get(name) ?? '') : '')
  let opens = false
  for (const secret of [row.current, row.previous])
    if (secret !== null && timingSafeEqual(given, digest(secret))) opens = true
  return name && opens ? id.data : null
}

export const sourceShapeRoutes = new Hono<AppEnv>()
  .use(async (c, next) => {
    await next()
    c.res.headers.set('access-control-allow-origin', '*')
    // Apps' fetches are CORS requests, which the app-wide same-origin CORP does not block.
    c.res.headers.set('access-control-expose-headers', EXPOSED_HEADERS)
  })
  .options('/', (c) =>
    c.body(null, 204, {
      'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
      'access-control-allow-headers': '*',
      'access-control-max-age': '86400',
    }),
  )
  .get('/', (c) => serveSourceShape(c))
  // Subset snapshots too long for a URL: the subset in a JSON body (the engine reads it).
  .post('/', (c) => serveSourceShape(c))
  .delete('/', async (c) => {
    const opened = await openSource(c)
    if (opened instanceof Response) return opened
    const allowed = c.var.deps.env.ALLOW_SHAPE_DELETION === true
    return deleteShape(opened.database, opened.query, allowed)
  })

async function serveSourceShape(c: Context<AppEnv>) {
  const opened = await openSource(c)
  if (opened instanceof Response) return opened
  // Apps may read several shapes at once through pglite-sync (answer-headers.ts).
  return serveShapeQuery(opened.database, opened.parts, c.req.raw, {
    tipMaxAge: HOSTED_TIP_MAX_AGE,
  })
}

/** The source's engine and the query without its credentials, or the answer that refuses. */
async function openSource(c: Context<AppEnv>) {
  const sourceId = await authorize(c, new URL(c.req.url).searchParams)
  if (!sourceId) return unauthorized()
  const database = c.var.deps.sources.database(sourceId)
  // Held by another server: its answer, streamed through (so any server behind a load
  // balancer serves every source).
  if (!database) return (await proxyShape(c, sourceId)) ?? notActive()
  const parts = requestParts(c)
  for (const name of CREDENTIALS) parts.query.delete(name)
  return { database, parts, query: parts.query }
}

/**
 * A /v1/shape live request as the engine would wait on it (watch.ts), or null when this server
 * would not simply wait: refused, not running here (held by another server), or malformed.
 * The client then sends the request itself and gets that answer.
 */
export async function watchedSourceShape(
  c: Context<AppEnv>,
  query: URLSearchParams,
): Promise<WatchedRequest | null> {
  const sourceId = await authorize(c, query)
  const database = sourceId && c.var.deps.sources.database(sourceId)
  if (!database) return null
  const rest = new URLSearchParams(query)
  for (const name of CREDENTIALS) rest.delete(name)
  const errors: ProtocolErrors = {}
  const request = parseProtocol(rest, errors)
  const definition = parseDefinition(rest, errors)
  if (Object.keys(errors).length > 0 || !definition) return null
  return { database, definition, request }
}
