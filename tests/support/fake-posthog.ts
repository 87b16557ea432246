// A stand-in for PostHog on 127.0.0.1: real HTTP, so the /ingest proxy and posthog-js run
// unchanged. It records every request as it arrived (method, path, query, headers, raw body)
// and decodes the events posthog-js sends (gzip, base64 form or plain JSON, one or a batch).
// GET /recorded answers both, for tests in another process; /hang never answers.
import { gunzipSync } from 'node:zlib'
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo } from 'node:net'

type RecordedRequest = {
  method: string
  path: string
  query: Record<string, string>
  headers: IncomingHttpHeaders
  body: Buffer
}

export type CapturedEvent = {
  event: string
  distinct_id?: string
  properties: Record<string, unknown>
  $set?: Record<string, unknown>
}

export type FakePostHog = {
  url: string
  requests: RecordedRequest[]
  events: CapturedEvent[]
  close(): Promise<void>
}

// Where posthog-js sends events, across its versions.
const EVENT_PATHS = new Set(['/e/', '/i/v0/e/', '/batch/', '/capture/'])

function decodeBody(request: RecordedRequest): unknown {
  let bytes = request.body
  const compression = request.query.compression
  if (compression === 'gzip-js' || (bytes[0] === 0x1f && bytes[1] === 0x8b))
    bytes = gunzipSync(bytes)
  let text = bytes.toString('utf8')
  const type = request.headers['content-type'] ?? ''
  if (compression === 'base64' || type.startsWith('application/x-www-form')) {
    const data = new URLSearchParams(text).get('data') ?? ''
    text = Buffer.from(data, 'base64').toString('utf8')
  }
  return JSON.parse(text)
}

function eventsOf(payload: unknown): CapturedEvent[] {
  const list =
    payload && typeof payload === 'object' && 'batch' in payload
      ? payload.batch
      : payload
  return (Array.isArray(list) ? list : [list]) as CapturedEvent[]
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, {
    'content-type': 'application/json',
    // A proxy must not pass this on to the browser.
    'set-cookie': 'fake_posthog=1; Path=/',
  })
  res.end(JSON.stringify(body))
}

export async function startFakePostHog(
  options: { port?: number } = {},
): Promise<FakePostHog> {
  const requests: RecordedRequest[] = []
  const events: CapturedEvent[] = []

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    // Concatenated, not resolved: a path like //host/x stays a path.
    const url = new URL(`http://fake${req.url ?? '/'}`)
    if (req.method === 'GET' && url.pathname === '/recorded')
      return json(res, 200, {
        events,
        requests: requests.map(({ method, path, query }) => ({
          method,
          path,
          query,
        })),
      })
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body: await readBody(req),
    }
    requests.push(recorded)
    if (url.pathname === '/hang') return
    if (req.method === 'POST' && EVENT_PATHS.has(url.pathname)) {
      events.push(...eventsOf(decodeBody(recorded)))
      return json(res, 200, { status: 1 })
    }
    json(res, 200, { path: url.pathname })
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) =>
      json(res, 400, { error: error.message }),
    )
  })
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, '127.0.0.1', resolve),
  )
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    requests,
    events,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Drops kept-alive and hanging connections so close() does not wait for them.
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}
