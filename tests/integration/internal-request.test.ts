// A request to the server holding a source (src/server/cluster/internal-request.ts): the
// client's Host and headers go along with the internal secret, connection-level headers do not,
// a holder that does not start answering in time is given up on, one that goes silent
// mid-answer is cut, and secrets compare whole.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  answerHeaders,
  cutWhenSilent,
  INTERNAL_SECRET_HEADER,
  readBounded,
  sameSecret,
  sendToHolder,
} from '../../src/server/cluster/internal-request.ts'

let server: Server
let base: string
let seen: { headers: IncomingHttpHeaders; body: string } | null = null

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/hang') return // never answers
    if (req.url === '/stall') {
      // Starts answering, then goes silent (a hung holder mid-stream).
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write('data: first\n\n')
      return
    }
    if (req.url === '/trickle') {
      // Silent for less than the bound each time, then done.
      res.writeHead(200)
      let n = 0
      const timer = setInterval(() => {
        res.write(`${n}`)
        if (++n === 5) {
          clearInterval(timer)
          res.end()
        }
      }, 100)
      return
    }
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      seen = { headers: req.headers, body }
      res.setHeader('electric-handle', 'h-1')
      res.setHeader('connection', 'keep-alive')
      res.end('x'.repeat(100))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

describe('a request to the holder', () => {
  it('keeps the client’s host and headers, adds the secret, drops connection-level headers', async () => {
    const answer = await sendToHolder({
      url: new URL(`${base}/api/v1/sources/x/restart?a=1`),
      method: 'POST',
      headers: new Headers({
        host: 'sluice.example.com',
        cookie: 'sluice_session=abc',
        connection: 'close, x-private',
        'x-private': 'for the first hop only',
        'content-type': 'application/json',
        'content-length': '999',
      }),
      body: Buffer.from('{"clear_cache":true}'),
      secret: 's'.repeat(32),
      timeoutMs: 5_000,
    })
    expect(answer.statusCode).toBe(200)
    expect(seen?.headers.host).toBe('sluice.example.com')
    expect(seen?.headers.cookie).toBe('sluice_session=abc')
    expect(seen?.headers[INTERNAL_SECRET_HEADER]).toBe('s'.repeat(32))
    expect(seen?.headers['content-length']).toBe('20')
    expect(seen?.headers['x-private']).toBeUndefined()
    expect(seen?.body).toBe('{"clear_cache":true}')
    const headers = answerHeaders(answer)
    expect(headers.get('electric-handle')).toBe('h-1')
    expect(headers.has('connection')).toBe(false)
    expect(await readBounded(answer, 10)).toBeNull()
  })

  it('gives up on a holder that does not start answering in time', async () => {
    await expect(
      sendToHolder({
        url: new URL(`${base}/hang`),
        method: 'GET',
        headers: new Headers(),
        secret: 's'.repeat(32),
        timeoutMs: 200,
      }),
    ).rejects.toThrow('the holder did not answer in time')
  })

  it('cuts an answer the holder goes silent in, and not one that keeps coming', async () => {
    const request = (path: string) =>
      sendToHolder({
        url: new URL(`${base}${path}`),
        method: 'GET',
        headers: new Headers(),
        secret: 's'.repeat(32),
        timeoutMs: 5_000,
      })
    const read = async (stream: AsyncIterable<Buffer>) => {
      let text = ''
      for await (const chunk of stream) text += chunk.toString()
      return text
    }
    const started = performance.now()
    await expect(
      read(cutWhenSilent(await request('/stall'), 300)),
    ).rejects.toThrow('the holder went silent')
    expect(performance.now() - started).toBeLessThan(2_000)
    expect(await read(cutWhenSilent(await request('/trickle'), 300))).toBe(
      '01234',
    )
  })

  it('compares secrets whole', () => {
    expect(sameSecret('s'.repeat(32), 's'.repeat(32))).toBe(true)
    expect(sameSecret('s'.repeat(31), 's'.repeat(32))).toBe(false)
    expect(sameSecret('', undefined)).toBe(false)
  })
})
