// What a shape answer needs from its request (query, If-None-Match, the client leaving), read
// from Node's own objects where @hono/node-server serves the app. Its Request builds its URL,
// Headers and AbortSignal on first use, and for a live answer they cost more than the answer:
// at 1,000 live shapes, parsing the URL and its query took 5.8% of the engine's time and the
// AbortControllers 1.9% (bench:engine --cpu-profile). Elsewhere (app.request() in tests) the
// Request's own parts serve.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Context } from 'hono'
import type { WaitSignal } from '../shapes/shape.ts'

export type RequestParts = {
  query: URLSearchParams
  ifNoneMatch: string | null
  signal: WaitSignal
}

type NodeBindings = { incoming?: IncomingMessage; outgoing?: ServerResponse }

export function requestParts(c: Context): RequestParts {
  const { incoming, outgoing } = (c.env ?? {}) as NodeBindings
  if (!incoming?.url || !outgoing)
    return {
      query: new URL(c.req.url).searchParams,
      ifNoneMatch: c.req.raw.headers.get('if-none-match'),
      signal: c.req.raw.signal,
    }
  return nodeRequestParts(incoming, outgoing)
}

/** The same from Node's request and response themselves. */
export function nodeRequestParts(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
): RequestParts {
  const url = incoming.url ?? ''
  const q = url.indexOf('?')
  return {
    query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)),
    ifNoneMatch: rawHeader(incoming.rawHeaders, 'if-none-match'),
    signal: new CloseSignal(outgoing),
  }
}

/**
 * A header's value from the raw list, repeats joined as Node joins them: reading
 * `incoming.headers` builds an object of every header for each request, kept as long as a
 * long-poll waits.
 */
export function rawHeader(raw: string[], name: string): string | null {
  let value: string | null = null
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const key = raw[i] as string
    if (key.length !== name.length || key.toLowerCase() !== name) continue
    const found = raw[i + 1] as string
    value = value === null ? found : `${value}, ${found}`
  }
  return value
}

/** The path of a request target (`/v1/shape?table=x` is `/v1/shape`). */
export function pathOf(url: string | undefined): string {
  if (!url) return ''
  const q = url.indexOf('?')
  return q < 0 ? url : url.slice(0, q)
}

/**
 * The response's 'close' as a WaitSignal: Node emits it when the client goes away, and also once
 * the answer is sent, by when nothing waits on it any more. A class: under tsx, an object of
 * arrow functions per request also pays a call per arrow to set its name.
 */
class CloseSignal implements WaitSignal {
  constructor(private readonly response: ServerResponse) {}

  get aborted(): boolean {
    return this.response.closed
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    this.response.once('close', listener)
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    this.response.off('close', listener)
  }
}
