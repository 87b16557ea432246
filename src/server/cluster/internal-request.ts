// One request from this server to the server holding a source, over node:http so
// the original Host header goes along (the holder's host guard and same-origin check see the
// address the client used) and the answer can stream (long-polls, live shapes).
import { timingSafeEqual, createHash } from 'node:crypto'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { PassThrough, type Readable } from 'node:stream'

/** Carries SLUICE_INTERNAL_SECRET on a forwarded request; never logged, never answered. */
export const INTERNAL_SECRET_HEADER = 'x-sluice-internal-secret'

// Connection-level headers a proxy does not pass on (RFC 9110 §7.6.1).
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
])

const digest = (text: string) => createHash('sha256').update(text).digest()

/** Constant-time: digests have one length, whatever was sent. */
export function sameSecret(given: string, expected: string | undefined) {
  return (
    expected !== undefined && timingSafeEqual(digest(given), digest(expected))
  )
}

export type HolderRequest = {
  /** The holder's internal URL joined with the original path and query. */
  url: URL
  method: string
  /** The client's headers; hop-by-hop ones are dropped, the secret is added. */
  headers: Headers
  body?: Buffer
  secret: string
  /** Until the holder's answer starts; a long-poll's wait counts. */
  timeoutMs: number
  /** The client went away: the request to the holder ends too. */
  signal?: AbortSignal
}

/** Sends the request; resolves with the holder's answer as it starts, rejects when it does not. */
export function sendToHolder(request: HolderRequest): Promise<IncomingMessage> {
  // Headers the client's Connection header names are for its hop only, too.
  const named = (request.headers.get('connection') ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
  const headers: Record<string, string> = {}
  request.headers.forEach((value, name) => {
    const local = HOP_BY_HOP.has(name) || named.includes(name)
    if (!local && name !== 'content-length') headers[name] = value
  })
  if (request.body) headers['content-length'] = String(request.body.length)
  headers[INTERNAL_SECRET_HEADER] = request.secret
  const send = request.url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const outgoing = send(request.url, {
      method: request.method,
      headers,
      signal: request.signal,
    })
    const timer = setTimeout(
      () => outgoing.destroy(new Error('the holder did not answer in time')),
      request.timeoutMs,
    )
    outgoing.on('response', (answer) => {
      clearTimeout(timer)
      resolve(answer)
    })
    outgoing.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    outgoing.end(request.body)
  })
}

/** The holder's answer headers, without hop-by-hop ones. */
export function answerHeaders(answer: IncomingMessage): Headers {
  const headers = new Headers()
  const raw = answer.rawHeaders
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase()
    if (!HOP_BY_HOP.has(name)) headers.append(name, raw[i + 1]!)
  }
  return headers
}

/** Reads at most `maxBytes` of the answer; null past it (the rest is not read). */
export async function readBounded(
  answer: IncomingMessage,
  maxBytes: number,
): Promise<Buffer | null> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of answer as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > maxBytes) {
      answer.destroy()
      return null
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

/**
 * The answer as a stream that fails once the holder sends nothing for `idleMs`: a holder that
 * hangs mid-answer (a live SSE stream; it sends a keep-alive every 21 s while idle) must not
 * hold the client's request for ever. A client that does not read for that long is cut too.
 */
export function cutWhenSilent(
  answer: IncomingMessage,
  idleMs: number,
): Readable {
  const out = new PassThrough()
  let timer: NodeJS.Timeout | undefined
  const arm = () => {
    clearTimeout(timer)
    timer = setTimeout(() => {
      const error = new Error('the holder went silent')
      answer.destroy(error)
      out.destroy(error)
    }, idleMs)
  }
  arm()
  answer.on('data', arm)
  answer.once('close', () => clearTimeout(timer))
  out.once('close', () => {
    clearTimeout(timer)
    answer.destroy()
  })
  answer.once('error', (error) => out.destroy(error))
  answer.pipe(out)
  return out
}
