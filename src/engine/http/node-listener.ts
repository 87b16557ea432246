// The standalone engine's HTTP entry on Node: shape reads answered straight from Node's request
// and onto its response, everything else through the Hono app (@hono/node-server).
//
// Why: at a thousand live shapes each long-poll answer is small and there are ten thousand of
// them a second, so what surrounds an answer costs more than the answer. Hono's routing,
// context and middleware, and the adapter's Request and Response objects, were about a third
// of what each answer allocated (bench:engine heap profile), and the young-generation
// collections they caused were the engine's largest single cost and most of its slow answers.
// The path is narrow: GETs of /v1/shape that are neither SSE streams nor subsets, whose answers
// are always a status, headers and a short text. Every shape request, on this path or not, is
// admitted here first (admission.ts): only here is its response's close seen.
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http'
import { getRequestListener } from '@hono/node-server'
import type { ShapeDatabase } from '../database.ts'
import { Admission, type RequestKind } from './admission.ts'
import {
  createEngineApp,
  sameSecret,
  SHAPE_PATH,
  tuningOf,
  type EngineAppOptions,
} from './app.ts'
import { nodeRequestParts, pathOf, rawHeader } from './node-request.ts'
import { givenSecret, unauthorized } from './secret-param.ts'
import { corsHeaders } from './responses.ts'
import { ParkedPoll, type Holder } from './long-poll.ts'
import {
  answerShapeQuery,
  type PlainAnswer,
  type PollAnswer,
} from './serve-shape.ts'

type EngineListener = (
  request: IncomingMessage,
  response: ServerResponse,
) => void

export type ListenerHooks = {
  /** Sees every request before it is answered (benchmarks and tests count origin requests). */
  onRequest?: (request: IncomingMessage) => void
}

function createEngineListener(
  options: EngineAppOptions,
  hooks: ListenerHooks = {},
): EngineListener {
  const viaApp = getRequestListener(createEngineApp(options).fetch)
  const tuning = tuningOf(options)
  const admission = new Admission(options.maxConcurrentRequests)
  return (request, response) => {
    hooks.onRequest?.(request)
    // As Node answers an HTTP/1.1 request without a Host (RFC 9112 3.2), from the raw list.
    if (
      request.httpVersion === '1.1' &&
      rawHeader(request.rawHeaders, 'host') === null
    ) {
      response.writeHead(400, { connection: 'close' })
      response.end()
      return
    }
    const { method } = request
    if (
      (method !== 'GET' && method !== 'POST') ||
      pathOf(request.url) !== SHAPE_PATH
    ) {
      void viaApp(request, response)
      return
    }
    const parts = nodeRequestParts(request, response)
    const { query } = parts
    if (!admission.admit(kindOf(query, options.database), response)) return
    // Streams (SSE, a subset's rows) and POSTs (a subset in the body) are the adapter's.
    if (method === 'POST' || isStream(query)) {
      void viaApp(request, response)
      return
    }
    if (options.secret && !sameSecret(givenSecret(query), options.secret)) {
      write(response, unauthorized()).catch((error: unknown) =>
        fail(response, error),
      )
      return
    }
    answerShapeQuery(options.database, parts, null, tuning, true)
      .then((answer) =>
        answer instanceof ParkedPoll
          ? answer.hold(response, HOLDER)
          : deliver(response, answer),
      )
      .catch((error: unknown) => fail(response, error))
  }
}

/** An HTTP server of the engine's listener (the CLI's, benchmarks', tests'). */
export function createEngineServer(
  options: EngineAppOptions,
  hooks: ListenerHooks = {},
): Server {
  // Node's own Host check reads `request.headers`, which builds an object of every header of
  // each request, kept for as long as its long-poll waits: the listener checks the raw list.
  return createServer(
    { requireHostHeader: false },
    createEngineListener(options, hooks),
  )
}

/**
 * As Electric classifies: by the handle alone, so the check costs one lookup. No handle, or one
 * this engine does not serve (another instance's, a shape since rotated), may create a shape.
 */
function kindOf(query: URLSearchParams, database: ShapeDatabase): RequestKind {
  const handle = query.get('handle')
  return handle !== null && database.byHandle(handle) ? 'existing' : 'initial'
}

function isStream(query: URLSearchParams): boolean {
  const sse = query.get('live_sse') ?? query.get('experimental_live_sse')
  if (sse !== null && sse !== 'false') return true
  let subset = false
  query.forEach((_value, name) => {
    if (name.startsWith('subset__')) subset = true
  })
  return subset
}

/** Where a parked poll's answer goes once its shape changes or its time is up. */
const HOLDER: Holder<PollAnswer> = { deliver, fail }

/** Writes an answer, plain at once; never throws (a parked poll's wake-up calls it). */
function deliver(response: ServerResponse, answer: PollAnswer): void {
  if (answer instanceof Response || answer instanceof Promise) {
    write(response, answer).catch((error: unknown) => fail(response, error))
    return
  }
  try {
    writePlain(response, answer)
  } catch (error) {
    fail(response, error)
  }
}

async function write(
  response: ServerResponse,
  answer: Response | Promise<Response> | PlainAnswer,
): Promise<void> {
  const settled = await answer
  writePlain(
    response,
    settled instanceof Response ? await plainOf(settled) : settled,
  )
}

function writePlain(response: ServerResponse, plain: PlainAnswer): void {
  // The client left while the answer waited: nothing to write to.
  if (response.destroyed || response.headersSent) return
  const { headers } = plain
  // A Buffer rather than the text: Node then writes its header block on its own, which
  // flattens that string in place. With a text body it writes header and body joined, and the
  // header stays the tree of some 60 pieces Node built it from, kept by the response. A
  // long-poll's response is old by the time it is answered, so every piece was promoted: a
  // quarter of what the engine promoted at 10,000 shapes (bench:engine --heap-profile).
  const body =
    plain.body === null || Buffer.isBuffer(plain.body)
      ? plain.body
      : Buffer.from(plain.body)
  if (body !== null) headers['content-length'] = String(body.length)
  response.writeHead(plain.status, headers)
  response.end(body ?? undefined)
}

/**
 * The few answers made as Responses on this path (errors, 409s): short JSON texts, with the
 * CORS headers the app's middleware gives every answer that is not a shape's own.
 */
async function plainOf(answer: Response): Promise<PlainAnswer> {
  const headers: Record<string, string> = {}
  answer.headers.forEach((value, name) => (headers[name] = value))
  if (answer.status !== 200 && answer.status !== 304)
    Object.assign(headers, corsHeaders(true))
  return { status: answer.status, headers, body: await answer.text() }
}

/** As the app answers an error it did not expect: logged, and a bare 500. */
function fail(response: ServerResponse, error: unknown): void {
  console.error(error)
  if (response.destroyed) return
  if (response.headersSent) {
    response.destroy()
    return
  }
  response.writeHead(500, { 'content-type': 'text/plain; charset=UTF-8' })
  response.end('Internal Server Error')
}
