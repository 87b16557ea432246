// /ingest/*: the app's analytics, forwarded to PostHog. Going through our own origin keeps
// PostHog out of the CSP, and keeps the session cookie on our side: headers are forwarded from
// short allowlists (so hop-by-hop headers, cookies and credentials never cross), bodies stream
// through unbuffered (capped by http/body-limit.ts as they go), and a slow or unreachable
// PostHog costs a 502/504, never the server.
import type { HttpBindings } from '@hono/node-server'
import { Hono, type Context } from 'hono'
import { INGEST_PATH } from '../../shared/analytics.ts'
import { bodyTooLarge } from '../platform/http/body-limit.ts'
import type { AppEnv } from '../platform/http/context.ts'
import { assetsHost, isAssetPath } from './posthog-hosts.ts'

const INGEST_TIMEOUT_MS = 10_000

const REQUEST_HEADERS = [
  'accept',
  'content-type',
  'content-encoding',
  'user-agent',
]
// No content-encoding or content-length: fetch has already decoded the body we pass on.
const RESPONSE_HEADERS = [
  'content-type',
  'cache-control',
  'etag',
  'expires',
  'last-modified',
  'retry-after',
]

function pick(from: Headers, names: string[]): Headers {
  const picked = new Headers()
  for (const name of names) {
    const value = from.get(name)
    if (value !== null) picked.set(name, value)
  }
  return picked
}

/** The upstream URL, built by path so `/ingest//elsewhere.example` cannot change the host. */
export function upstreamUrl(base: string, path: string, search: string): URL {
  const url = new URL(base)
  url.pathname = url.pathname.replace(/\/$/, '') + path
  url.search = search
  return url
}

// PostHog places events by the sender's address; without this every visitor is our server.
function forwardedFor(c: Context<AppEnv>): string | undefined {
  // Absent when the app is called in-process (tests) rather than by @hono/node-server.
  const bindings = c.env as Partial<HttpBindings> | undefined
  const peer = bindings?.incoming?.socket.remoteAddress
  const chain = c.req.header('x-forwarded-for')
  return [chain, peer].filter(Boolean).join(', ') || undefined
}

export function ingestRoutes({ timeoutMs = INGEST_TIMEOUT_MS } = {}) {
  return new Hono<AppEnv>().all('/*', async (c) => {
    const { env, log } = c.var.deps
    // Analytics is off: nothing is forwarded, whoever asks.
    if (!env.POSTHOG_KEY) return c.json({ message: 'Not found' }, 404)

    const path = c.req.path.slice(INGEST_PATH.length) || '/'
    const base = isAssetPath(path)
      ? assetsHost(env.POSTHOG_HOST)
      : env.POSTHOG_HOST
    const target = upstreamUrl(base, path, new URL(c.req.url).search)
    const headers = pick(c.req.raw.headers, REQUEST_HEADERS)
    const sender = forwardedFor(c)
    if (sender) headers.set('x-forwarded-for', sender)
    const hasBody = c.req.method !== 'GET' && c.req.method !== 'HEAD'
    // `duplex` is how fetch streams a request body; the DOM typings do not know it yet.
    const init: RequestInit & { duplex: 'half' } = {
      method: c.req.method,
      headers,
      body: hasBody ? c.req.raw.body : null,
      duplex: 'half',
      signal: AbortSignal.any([
        c.req.raw.signal,
        AbortSignal.timeout(timeoutMs),
      ]),
    }
    try {
      const upstream = await fetch(target, init)
      return new Response(upstream.body, {
        status: upstream.status,
        headers: pick(upstream.headers, RESPONSE_HEADERS),
      })
    } catch (error) {
      // The sender's fault, not PostHog's: app.onError answers 413.
      if (bodyTooLarge(error)) throw error
      const timedOut =
        error instanceof DOMException && error.name === 'TimeoutError'
      const reason = timedOut ? 'timed out' : describe(error)
      log.warn(`ingest ${c.req.method} ${path} failed: ${reason}`)
      return timedOut
        ? c.json({ message: 'Analytics upstream timed out' }, 504)
        : c.json({ message: 'Analytics upstream unreachable' }, 502)
    }
  })
}

// fetch wraps the socket error; its cause names it (ECONNREFUSED, ENOTFOUND, ...).
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause
  return cause instanceof Error
    ? `${error.message}: ${cause.message}`
    : error.message
}
