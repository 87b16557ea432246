// Answers one shape request as the Electric protocol says: snapshot chunks, log pages,
// up-to-date, long-poll at the tail, 409 when the handle is not the live one, 400 for an offset
// the log never reaches.
import type { ShapeDatabase } from '../database.ts'
import { UnavailableError } from '../unavailable.ts'
import {
  ReplicationSetupError,
  TableBusyError,
  UnreplicableTableError,
} from '../replication/publication.ts'
import { DefinitionError, type ShapeDefinition } from '../shapes/definition.ts'
import { BEFORE_ALL, formatOffset, type Offset } from '../storage/offset.ts'
import { namesSnapshotChunk } from '../storage/chunks.ts'
import type { Message, ReadResult } from '../storage/shape-log.ts'
import { answerBody } from './answer-body.ts'
import type { Shape, WaitSignal } from '../shapes/shape.ts'
import { NotReplicableError, TableNotFoundError } from '../shapes/table-info.ts'
import { WhereError } from '../where/index.ts'
import {
  CACHE_MAX_AGE,
  CACHE_STALE_AGE,
  cacheControl,
  etag,
  matches,
  type CacheAges,
} from './answer-headers.ts'
import { ParkedPoll } from './long-poll.ts'
import { OUT_OF_BOUNDS, reachesLog, withinLog } from './out-of-bounds.ts'
import type { RequestParts } from './node-request.ts'
import { mergeBody } from './merge-body.ts'
import { readJsonBody } from './read-body.ts'
import { serveSse } from './serve-sse.ts'
import { serveSubset } from './serve-subset.ts'
import {
  parseDefinition,
  parseProtocol,
  type ProtocolErrors,
  type ShapeRequest,
} from './request.ts'
import {
  corsHeaders,
  invalid,
  jsonResponse,
  mustRefetch,
  nextCursor,
  upToDate,
} from './responses.ts'

export const LONG_POLL_MS = 20_000
/** Electric's default log chunk: an answer ends at a chunk's end (storage/log-store.ts). */
export const CHUNK_BYTES = 10 * 1024 * 1024

export type ServeOptions = {
  database: ShapeDatabase
  definition: ShapeDefinition
  request: ShapeRequest
  signal?: WaitSignal
  /**
   * A signed-in user's shape: never stored by any cache. Its rows (they may carry
   * secrets) must not outlive the session in the browser's HTTP cache.
   */
  perUser?: boolean
  longPollMs?: number
  /** The request's `If-None-Match` header: a matching ETag gets an empty 304. */
  ifNoneMatch?: string | null
  /** The log chunk size: answers end at chunk ends, so caches share them. */
  chunkBytes?: number
  /** SSE streams: how long one lasts, and the quiet time before a keep-alive comment. */
  sseTimeoutMs?: number
  keepAliveMs?: number
  /** Answers carry `access-control-allow-origin: *` (apps' endpoints, not the dashboard's). */
  cors?: boolean
  /** A long-poll with nothing to answer yet is returned parked, for the caller to hold. */
  park?: boolean
  /**
   * Seconds a cache may keep non-live answers, and serve them stale while it asks again
   * (Electric's ELECTRIC_CACHE_MAX_AGE and ELECTRIC_CACHE_STALE_AGE, 60 and 300 by default).
   */
  cacheMaxAge?: number
  cacheStaleAge?: number
  /** A pinned tip: answers that reach it kept this long instead (answer-headers.ts). */
  tipMaxAge?: number
}

// Waits until the shape's snapshot is readable ('ready'), or, given `soFar`, until the
// snapshot chunk the request reads is, while the rest is still being read (that chunk's
// answer); null if the shape failed or was rotated. `due`: when a request waiting this long
// counts as stalled (a snapshot that never ends).
async function whenReadable(
  shape: Shape,
  signal: WaitSignal | undefined,
  due: number,
  soFar: (() => ReadResult | null) | null,
): Promise<ReadResult | 'ready' | null> {
  for (;;) {
    if (shape.failure) return null
    if (shape.ready) return 'ready'
    const early = soFar?.()
    if (early) return early
    if (signal?.aborted) return null
    await shape.waitForChange(1000, signal, due)
  }
}

/**
 * An answer as status, headers and body (bytes, or a short text): what most shape requests get.
 * The engine's listener writes it to Node's response as it is (node-listener.ts); serveShape
 * makes it a Response.
 */
export type PlainAnswer = {
  status: number
  headers: Record<string, string>
  body: Buffer | string | null
}

/**
 * What an answer's headers are made from (answer()): a few fields of the request rather than
 * all of it. A parked long-poll keeps this for as long as it waits, so long that it is
 * promoted; the request's parse, its definition and its options are left behind.
 */
type Reply = Pick<
  ServeOptions,
  'database' | 'perUser' | 'cors' | 'longPollMs' | 'ifNoneMatch'
> & { requested: ShapeRequest['offset']; cursor: string | null } & CacheAges

const replyOf = (options: ServeOptions): Reply => ({
  database: options.database,
  perUser: options.perUser,
  cors: options.cors,
  longPollMs: options.longPollMs,
  ifNoneMatch: options.ifNoneMatch,
  requested: options.request.offset,
  cursor: options.request.cursor,
  maxAge: options.cacheMaxAge ?? CACHE_MAX_AGE,
  staleAge: options.cacheStaleAge ?? CACHE_STALE_AGE,
  tipMaxAge: options.tipMaxAge,
})

/** What a long-poll's answer is made from once its shape changes (resumeLongPoll). */
type LongPoll = { reply: Reply; after: Offset; chunkBytes: number }

/** The answer a parked long-poll gets: plain, or a Response (a 409 or 503 when it ended). */
export type PollAnswer = PlainAnswer | Response | Promise<Response>

type Parked = ParkedPoll<LongPoll, PollAnswer>

/** Whatever answerShape may give: parked only when its options say `park`. */
type Answer = Response | PlainAnswer | Parked

const asResponse = (answer: Answer): Response => {
  if (answer instanceof Response) return answer
  if (answer instanceof ParkedPoll)
    throw new Error('a parked long-poll is its caller’s to hold')
  // A Buffer is the bytes of an ArrayBuffer (Buffer.concat, Buffer.from), as BodyInit wants.
  const body = answer.body as Uint8Array<ArrayBuffer> | string | null
  return new Response(body, {
    status: answer.status,
    headers: answer.headers,
  })
}

export async function serveShape(options: ServeOptions): Promise<Response> {
  return asResponse(await answerShape(options))
}

/** serveShape's answer, left plain where it is one (every answer but SSE, subsets, errors). */
async function answerShape(options: ServeOptions): Promise<Answer> {
  const { database, definition, request, signal } = options
  let shape: Shape
  try {
    shape =
      (request.handle !== null &&
        database.liveShapeFor(request.handle, definition)) ||
      (await database.shapeFor(definition))
  } catch (error) {
    // Not reachable yet, or its table locked by a long transaction: try again in a moment.
    if (error instanceof UnavailableError || error instanceof TableBusyError)
      return jsonResponse(
        503,
        { message: error.message },
        { 'retry-after': '5' },
      )
    if (
      error instanceof TableNotFoundError ||
      error instanceof NotReplicableError
    )
      return invalid({ table: [error.message] })
    // Generated columns Postgres cannot publish: as Electric answers them, 503 with the why.
    if (error instanceof UnreplicableTableError)
      return jsonResponse(
        503,
        { message: error.message },
        { 'retry-after': '60' },
      )
    if (error instanceof WhereError) return invalid({ where: [error.message] })
    if (error instanceof DefinitionError)
      return invalid({ [error.param]: [error.message] })
    // The role may not publish the table: say which table and the SQL that fixes it.
    if (error instanceof ReplicationSetupError)
      return invalid({ table: [`${error.message} Run: ${error.sql}`] })
    // Any network failure (a Node code, not a SQLSTATE) reads alike: which one it was would
    // tell a closed port from a filtered one.
    const code = (error as { code?: string }).code
    if (code === '57P01' || (code !== undefined && !/^[0-9A-Z]{5}$/.test(code)))
      return jsonResponse(
        503,
        { message: 'The database is unreachable' },
        { 'retry-after': '5' },
      )
    throw error
  }

  if (request.compaction && shape.mover)
    return invalid({
      experimental_compaction: ["can't be enabled for shapes with subqueries"],
    })
  const before = request.offset !== 'now' && request.offset.tx < 0n
  if (request.offset !== 'now' && !before && request.handle !== shape.handle) {
    shape.refetchedFrom(request.handle)
    return mustRefetch(shape.handle, options.perUser)
  }
  const chunkBytes = options.chunkBytes ?? CHUNK_BYTES
  // A snapshot is answered chunk by chunk as it is read: a client reads its first rows while
  // Postgres still sends the rest (not a live request, nor a subset: those wait for it all).
  const streams =
    request.offset !== 'now' &&
    !request.live &&
    !request.subset &&
    (before || namesSnapshotChunk(request.offset))
  const soFar = streams
    ? () => shape.log.readSnapshotSoFar(request.offset as Offset, chunkBytes)
    : null
  // Ready (as almost every shape is) without an await: a live request passes here each time.
  const readable =
    shape.ready && !shape.failure
      ? 'ready'
      : await whenReadable(
          shape,
          signal,
          Date.now() + (options.longPollMs ?? LONG_POLL_MS),
          soFar,
        )
  const reply = replyOf(options)
  if (readable !== null && readable !== 'ready')
    return answer(
      shape,
      reply,
      before,
      readable.messages,
      readable.lastOffset,
      false,
      false,
    )
  if (readable === null) {
    if (shape.failure && shape.failure.message !== 'rotated')
      return jsonResponse(
        503,
        { message: shape.failure.message },
        { 'retry-after': '5' },
      )
    return successor(database, definition, options, shape.handle)
  }

  if (request.subset)
    return serveSubset({
      database,
      shape,
      subset: request.subset,
      offset: request.offset,
      perUser: options.perUser,
      cors: options.cors,
    })
  if (request.offset === 'now')
    return answer(
      shape,
      reply,
      before,
      [],
      shape.log.tipOffset(chunkBytes),
      true,
      false,
    )
  const longPollMs = options.longPollMs ?? LONG_POLL_MS
  if (
    !before &&
    !withinLog(shape, request.offset, database.globalLsn) &&
    !(await reachesLog(
      shape,
      request.offset,
      () => database.globalLsn,
      longPollMs / 2,
      signal,
    ))
  )
    return shape.failure
      ? successor(database, definition, options, shape.handle)
      : invalid({ offset: [OUT_OF_BOUNDS] })
  // An SSE client resumes from `<lsn>_0` (the global LSN of its last up-to-date): past that
  // whole transaction. Any other offset is exact: answers end at transaction ends, or inside a
  // transaction larger than a chunk (storage/chunks.ts), never at op 0, and go on from there.
  const after = before
    ? BEFORE_ALL
    : request.offset.tx > 0n && request.offset.op === 0
      ? { tx: request.offset.tx, op: Infinity }
      : request.offset
  // A signed-in user's shape is answered as a long-poll even to an SSE client: its caller
  // checks the session when the answer is ready, and a stream would outlive a logout. (The
  // client falls back to long-polling after a few such answers.)
  if (request.live && request.sse && !options.perUser)
    return serveSse({
      database,
      shape,
      requested: request.offset,
      after,
      cursor: request.cursor,
      chunkBytes,
      longPollMs,
      signal,
      timeoutMs: options.sseTimeoutMs,
      keepAliveMs: options.keepAliveMs,
      cors: options.cors,
    })
  // A first answer is the snapshot's first chunk: the snapshot's end always ends a chunk
  // (storage/chunks.ts), so caches that keep it for a week see the same answer for the same URL,
  // whatever was written since. Nor does a shared shape's say up-to-date, which would claim a
  // moment; the client asks again and learns it then. A signed-in user's shape is never cached:
  // its first answer says up-to-date when it reaches the end, a round trip less before its rows
  // count as synced (the dashboard's shapes wait on each other's rows).
  const page = shape.log.read(after, chunkBytes)
  if (before)
    return answer(
      shape,
      reply,
      before,
      page.messages,
      page.lastOffset,
      options.perUser === true && page.atEnd,
      false,
    )
  if (page.messages.length === 0 && page.atEnd && request.live) {
    const poll = { reply, after, chunkBytes }
    if (options.park)
      return new ParkedPoll(
        shape,
        shape.lastOffset,
        longPollMs,
        poll,
        resumeLongPoll,
      )
    await shape.waitForChange(longPollMs, signal)
    return resumeLongPoll(shape, poll)
  }
  return answer(
    shape,
    reply,
    before,
    page.messages,
    page.lastOffset,
    page.atEnd,
    request.live,
  )
}

/** A long-poll's answer once its shape changed, ended, or its time ran out. */
function resumeLongPoll(
  shape: Shape,
  { reply, after, chunkBytes }: LongPoll,
): PollAnswer {
  // The shape's definition is the request's (same key), without keeping the request's.
  if (shape.failure)
    return successor(reply.database, shape.definition, reply, shape.handle)
  const page = shape.log.read(after, chunkBytes)
  return answer(
    shape,
    reply,
    false,
    page.messages,
    page.lastOffset,
    page.atEnd,
    true,
  )
}

/** The shape `ended` ended under this request (rotated): send the client to its successor. */
async function successor(
  database: ShapeDatabase,
  definition: ShapeDefinition,
  options: Pick<ServeOptions, 'perUser'>,
  ended: string,
): Promise<Response> {
  const current = await database.shapeFor(definition).catch(() => null)
  current?.refetchedFrom(ended)
  return current
    ? mustRefetch(current.handle, options.perUser)
    : jsonResponse(
        503,
        { message: 'Shape unavailable' },
        { 'retry-after': '5' },
      )
}

/**
 * A page of the shape's log as Electric's answer: its headers, or a 304 when the client holds
 * it. (Module-level rather than a closure of serveShape: under tsx each closure made per
 * request also pays a call to set its name.)
 */
function answer(
  shape: Shape,
  reply: Reply,
  before: boolean,
  messages: Message[],
  offset: Offset,
  isUpToDate: boolean,
  live: boolean,
): PlainAnswer {
  const { database } = reply
  // Electric's "no changes" answers (offset=now, a long-poll that timed out) say so, and the
  // client can skip work for them; a non-live answer at the tip is not one of them.
  const noChanges = reply.requested === 'now' || (live && messages.length === 0)
  // Never below the answer's own position (a shape's records may lie past the global LSN:
  // subqueries/mover.ts), so a client resuming at `<lsn>_0` reads nothing twice.
  const lsn = database.globalLsn > offset.tx ? database.globalLsn : offset.tx
  if (isUpToDate) messages.push(upToDate(lsn))
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...corsHeaders(reply.cors),
    'electric-handle': shape.handle,
    'electric-offset': formatOffset(offset),
    'cache-control': reply.perUser
      ? 'private, no-store'
      : cacheControl({ live, before, upToDate: isUpToDate }, reply),
  }
  if (!live) headers['electric-schema'] = shape.schema
  else
    headers['electric-cursor'] = nextCursor(
      reply.cursor,
      reply.longPollMs ?? LONG_POLL_MS,
      `${shape.handle}:${formatOffset(offset)}`,
    )
  if (isUpToDate) headers['electric-up-to-date'] = ''
  headers['electric-has-data'] = String(!noChanges)
  headers.etag = etag(
    shape.handle,
    reply.requested,
    offset,
    noChanges,
    isUpToDate && reply.tipMaxAge !== undefined ? lsn : null,
  )
  if (matches(reply.ifNoneMatch, headers.etag)) {
    shape.markRead(0)
    return { status: 304, headers, body: null }
  }
  const body = answerBody(messages)
  shape.markRead(body.length, true, !live)
  return { status: 200, headers, body }
}

export type QueryTuning = Pick<
  ServeOptions,
  | 'chunkBytes'
  | 'sseTimeoutMs'
  | 'keepAliveMs'
  | 'longPollMs'
  | 'cacheMaxAge'
  | 'cacheStaleAge'
  | 'tipMaxAge'
>

/**
 * A whole request whose query names the shape itself (table, where...): parsed, then served.
 * A POST may carry a subset in its JSON body (Electric's form for subsets too long for a URL),
 * and shape parameters too, over the query's (merge-body.ts).
 */
export async function serveShapeQuery(
  database: ShapeDatabase,
  parts: RequestParts,
  raw: Request,
  tuning: QueryTuning = {},
): Promise<Response> {
  return asResponse(await answerShapeQuery(database, parts, raw, tuning))
}

/** serveShapeQuery's answer, left plain where it is one (answerShape). */
export async function answerShapeQuery(
  database: ShapeDatabase,
  parts: RequestParts,
  raw: Request | null,
  tuning: QueryTuning = {},
  park = false,
): Promise<Answer> {
  let { query } = parts
  let body: Record<string, unknown> | null = null
  const errors: ProtocolErrors = {}
  if (raw?.method === 'POST') {
    const read = await readJsonBody(raw)
    if (read instanceof Response) return read
    const merged = mergeBody(query, read, errors)
    query = merged.query
    body = merged.subset
  }
  const request = parseProtocol(query, errors, body)
  const definition = parseDefinition(query, errors)
  if (Object.keys(errors).length > 0 || !definition) return invalid(errors)
  return answerShape({
    database,
    definition,
    request,
    signal: parts.signal,
    cors: true,
    ...tuning,
    ifNoneMatch: parts.ifNoneMatch,
    park,
  })
}
