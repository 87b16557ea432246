// Live requests the engine's listener holds while their shape has nothing new (parked polls,
// http/long-poll.ts): answered by the next change, by the long-poll's timeout with an empty
// up-to-date, or with a 409 when the shape is rotated under them; never left on the shape.
import { connect } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'

// Short enough for the timeout test, long enough that a change committed while polls wait
// reaches them before they time out, even in a loaded CI run (400 ms was not: seen in CI).
const LONG_POLL_MS = 2_000

let source: TestDatabase
let engine: TestEngine

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(`create table notes (id int primary key, body text)`)
  await source.db.query(`insert into notes values (1, 'a')`)
  engine = await startTestEngine(source.url, { longPollMs: LONG_POLL_MS })
}, 60_000)

afterAll(async () => {
  await engine?.destroy()
  await source?.drop()
})

/** A shape of its own per test (`id >= n`), read to its tip: what a client then holds. */
async function tipOf(from: number) {
  const where = `where=${encodeURIComponent(`id >= ${from}`)}`
  let response = await fetch(
    `${engine.shapeUrl}?table=notes&${where}&offset=-1`,
  )
  const handle = response.headers.get('electric-handle') ?? ''
  for (let i = 0; i < 10; i++) {
    const offset = response.headers.get('electric-offset') ?? ''
    await response.body?.cancel()
    if (response.headers.has('electric-up-to-date')) {
      const live = () =>
        fetch(
          `${engine.shapeUrl}?table=notes&${where}&offset=${offset}&handle=${handle}&live=true`,
        )
      return { handle, offset, live, shape: engine.database.byHandle(handle) }
    }
    response = await fetch(
      `${engine.shapeUrl}?table=notes&${where}&offset=${offset}&handle=${handle}`,
    )
  }
  throw new Error('never reached the tip')
}

type Message = { headers: { operation?: string; control?: string } }

it('answers every parked poll of a shape with the change that wakes them', async () => {
  const tip = await tipOf(100)
  const polls = Array.from({ length: 5 }, () => tip.live())
  await expect.poll(() => tip.shape?.waitingRequests).toBe(5)
  await source.db.query(`insert into notes values (101, 'woken')`)
  for (const response of await Promise.all(polls)) {
    expect(response.status).toBe(200)
    expect(response.headers.get('electric-has-data')).toBe('true')
    const messages = (await response.json()) as Message[]
    expect(
      messages.map((m) => m.headers.operation ?? m.headers.control),
    ).toEqual(['insert', 'up-to-date'])
  }
  expect(tip.shape?.waitingRequests).toBe(0)
})

it('answers a poll nothing wakes at its timeout: up to date, no data, the same offset', async () => {
  const tip = await tipOf(200)
  const started = performance.now()
  const response = await tip.live()
  expect(performance.now() - started).toBeGreaterThanOrEqual(LONG_POLL_MS - 50)
  expect(response.status).toBe(200)
  expect(response.headers.get('electric-has-data')).toBe('false')
  expect(response.headers.get('electric-offset')).toBe(tip.offset)
  expect(response.headers.has('electric-up-to-date')).toBe(true)
  expect(response.headers.get('electric-cursor')).toMatch(/^\d+$/)
  const messages = (await response.json()) as Message[]
  expect(messages.map((m) => m.headers.control)).toEqual(['up-to-date'])
  expect(tip.shape?.waitingRequests).toBe(0)
})

it('sends a parked poll to the successor when its shape is rotated', async () => {
  const tip = await tipOf(300)
  const poll = tip.live()
  await expect.poll(() => tip.shape?.waitingRequests).toBe(1)
  const deleted = await fetch(`${engine.shapeUrl}?handle=${tip.handle}`, {
    method: 'DELETE',
  })
  expect(deleted.status).toBe(202)
  const response = await poll
  expect(response.status).toBe(409)
  const next = response.headers.get('electric-handle')
  expect(next).toBeTruthy()
  expect(next).not.toBe(tip.handle)
  const messages = (await response.json()) as Message[]
  expect(messages[0]?.headers.control).toBe('must-refetch')
})

/** What the engine's listener answers to a request written as it is, up to its close. */
function rawExchange(request: string): Promise<string> {
  const url = new URL(engine.shapeUrl)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname)
    let answer = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => (answer += chunk))
    socket.on('end', () => resolve(answer))
    socket.on('error', reject)
    socket.write(request)
  })
}

// The listener checks the Host itself (Node's own check would build every request's headers
// object, kept as long as its poll waits): still a 400 and a closed connection without one.
it('refuses an HTTP/1.1 request without a Host, as Node does, and serves one with it', async () => {
  const target = '/v1/shape?table=notes&offset=-1'
  const refused = await rawExchange(`GET ${target} HTTP/1.1\r\n\r\n`)
  expect(refused).toMatch(/^HTTP\/1\.1 400 /)
  expect(refused.toLowerCase()).toContain('connection: close')
  const served = await rawExchange(
    `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
  )
  expect(served).toMatch(/^HTTP\/1\.1 200 /)
  expect(served).toContain('electric-handle')
})

// A request's handle finds its shape without building the definition's key (liveShapeFor),
// but only when the definition is that shape's: another's gets a 409 to its own shape.
it('never serves a handle with another definition from the handle’s shape', async () => {
  const first = await tipOf(200)
  const second = await tipOf(300)
  const where = encodeURIComponent('id >= 300')
  const response = await fetch(
    `${engine.shapeUrl}?table=notes&where=${where}&offset=${first.offset}&handle=${first.handle}`,
  )
  expect(response.status).toBe(409)
  expect(response.headers.get('electric-handle')).toBe(second.handle)
  await response.body?.cancel()
})
