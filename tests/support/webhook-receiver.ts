// A webhook receiver on 127.0.0.1 for the alert tests: it keeps every request it gets (headers
// and raw body) and answers the statuses it is told to, one per request, then 200.
import { createHmac } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

type Received = { headers: IncomingHttpHeaders; body: string }

export type WebhookReceiver = {
  url: string
  received: Received[]
  /** The next requests' answers, in order; 200 once these are used. */
  answer(...statuses: number[]): void
  close(): Promise<void>
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: Received[] = []
  const queue: number[] = []
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      received.push({
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      })
      response.statusCode = queue.shift() ?? 200
      response.end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answer: (...statuses) => queue.push(...statuses),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}

/** What a receiver does with the documented scheme (docs/alerts.md). */
export function verifySignature(
  secret: string,
  timestamp: string,
  body: string,
  signature: string,
): boolean {
  const expected = createHmac('sha256', secret)
    .update(`${timestamp}.${body}`)
    .digest('hex')
  return signature === `v1=${expected}`
}
