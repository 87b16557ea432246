// Every server answers every call (docs/architecture.md, "Several servers on one control plane"): a
// request about a source another server holds goes to that server (its internal address is recorded
// with its claim, source_holders) with the shared SLUICE_INTERNAL_SECRET, and its answer comes back
// as is. The holder checks the session or the source's credentials itself: the client's headers go
// along unchanged. A forwarded request is never forwarded again.
import { Readable } from 'node:stream'
import type { ReadableStream as WebStream } from 'node:stream/web'
import type { Context } from 'hono'
import { findHolder, type Holder } from './source-holders.ts'
import type { AppEnv } from '../platform/http/context.ts'
import { REQUEST_ID_HEADER } from '../platform/http/request-id.ts'
import { currentRequestId } from '../platform/log.ts'
import {
  answerHeaders,
  cutWhenSilent,
  INTERNAL_SECRET_HEADER,
  readBounded,
  sameSecret,
  sendToHolder,
} from './internal-request.ts'

type C = Context<AppEnv>

/** An action's answer is small (a txid, a table list): more than this is refused. */
const MAX_ACTION_ANSWER_BYTES = 1024 * 1024
/** The largest body any forwarded route takes: an app's subset request (the engine's bound). */
const MAX_BODY_BYTES = 1024 * 1024
const ACTION_TIMEOUT_MS = 15_000
/** Past the engine's long-poll (20 s), so a live request through here ends at the holder. */
const SHAPE_TIMEOUT_MS = 60_000
/** Twice the engine's SSE keep-alive (21 s) and more: a streaming answer never idles this long. */
const SHAPE_IDLE_MS = 45_000

const NOT_ANSWERING = {
  message:
    'The source is held by a server that does not answer. Try again shortly.',
}

const tooLarge = () =>
  Response.json({ message: 'Request body too large' }, { status: 413 })

const notAnswering = () =>
  Response.json(NOT_ANSWERING, {
    status: 503,
    headers: { 'retry-after': '5' },
  })

/**
 * Where to send a request about the source: the holder, when another server holds it and this
 * one may forward; null to answer here; a Response for a forwarded request with a bad secret.
 */
async function holderElsewhere(
  c: C,
  sourceId: string,
): Promise<{ holder: Holder; secret: string } | Response | null> {
  const { env, sources, db } = c.var.deps
  const secret = env.SLUICE_INTERNAL_SECRET
  const given = c.req.header(INTERNAL_SECRET_HEADER)
  if (given !== undefined)
    return sameSecret(given, secret)
      ? null
      : Response.json({ message: 'Unauthorized' }, { status: 401 })
  if (!secret || !sources || sources.holds(sourceId)) return null
  const holder = await findHolder(db, sourceId)
  if (!holder || holder.instanceId === sources.instanceId) return null
  return { holder, secret }
}

/** The request's body, read up to MAX_BODY_BYTES; null past it. */
async function bodyOf(c: C): Promise<Buffer | null> {
  const chunks: Uint8Array[] = []
  let size = 0
  const stream = c.req.raw.body
  if (!stream) return Buffer.alloc(0)
  for await (const chunk of Readable.fromWeb(
    stream as WebStream<Uint8Array>,
  ) as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) return null
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

async function send(
  c: C,
  target: { holder: Holder; secret: string },
  timeoutMs: number,
) {
  const original = new URL(c.req.url)
  const url = new URL(
    `${target.holder.internalUrl}${original.pathname}${original.search}`,
  )
  const method = c.req.method
  const body =
    method === 'GET' || method === 'HEAD' ? undefined : await bodyOf(c)
  if (body === null) return null
  // The holder logs under this request's id, so one id follows the call across servers.
  const headers = new Headers(c.req.raw.headers)
  const id = currentRequestId()
  if (id) headers.set(REQUEST_ID_HEADER, id)
  // Ends when the client goes away, or when this server ends the holder's claims session for
  // not answering (a hung holder): the client then retries at once, and the source's new
  // holder answers, rather than after the whole timeout.
  const aborter = new AbortController()
  const abort = () => aborter.abort()
  c.req.raw.signal.addEventListener('abort', abort, { once: true })
  const unsubscribe = c.var.deps.sources.onHolderEnded((instanceId) => {
    if (instanceId === target.holder.instanceId) abort()
  })
  try {
    const answer = await sendToHolder({
      url,
      method,
      headers,
      body: body && body.length > 0 ? body : undefined,
      secret: target.secret,
      timeoutMs,
      signal: aborter.signal,
    })
    // Until the answer ends: a holder that hangs mid-answer (a live SSE stream) is cut too.
    answer.once('close', () => unsubscribe?.())
    return answer
  } catch (error) {
    unsubscribe?.()
    throw error
  }
}

/**
 * An API action (restart, clear cache, delete, the explorer's reads, deleting a live shape)
 * on a source another server holds: that server's answer, read whole (bounded); null to
 * answer here.
 */
export async function forwardAction(
  c: C,
  sourceId: string,
): Promise<Response | null> {
  const target = await holderElsewhere(c, sourceId)
  if (target === null || target instanceof Response) return target
  const started = performance.now()
  try {
    const answer = await send(c, target, ACTION_TIMEOUT_MS)
    if (!answer) return tooLarge()
    // The whole answer within the bound, not only its start: a holder that hangs mid-answer
    // (stopped, stuck) must not hold the request for ever.
    const left = Math.max(0, ACTION_TIMEOUT_MS - (performance.now() - started))
    const deadline = setTimeout(
      () => answer.destroy(new Error('the holder did not finish in time')),
      left,
    )
    const body = await readBounded(answer, MAX_ACTION_ANSWER_BYTES).finally(
      () => clearTimeout(deadline),
    )
    if (body === null)
      return Response.json(
        {
          message: 'The answer of the server holding the source is too large.',
        },
        { status: 502 },
      )
    return new Response(new Uint8Array(body), {
      status: answer.statusCode ?? 502,
      headers: answerHeaders(answer),
    })
  } catch {
    // What the network said names hosts and addresses: the client gets Sluice's own words.
    return notAnswering()
  }
}

/**
 * An app's shape request (/v1/shape) for a source another server holds: the holder's answer,
 * streamed as it comes (long-polls and live updates included), headers kept; null to answer
 * here.
 */
export async function proxyShape(
  c: C,
  sourceId: string,
): Promise<Response | null> {
  const target = await holderElsewhere(c, sourceId)
  if (target === null || target instanceof Response) return target
  try {
    const answer = await send(c, target, SHAPE_TIMEOUT_MS)
    if (!answer) return tooLarge()
    const status = answer.statusCode ?? 502
    const empty = status === 204 || status === 304 || c.req.method === 'HEAD'
    // Read to its end even when nothing is passed on, so it closes.
    if (empty) answer.resume()
    return new Response(
      empty
        ? null
        : (Readable.toWeb(
            cutWhenSilent(answer, SHAPE_IDLE_MS),
          ) as ReadableStream<Uint8Array>),
      { status, headers: answerHeaders(answer) },
    )
  } catch {
    return notAnswering()
  }
}
