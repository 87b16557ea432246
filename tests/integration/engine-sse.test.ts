// Live mode as server-sent events (docs/protocol.md): the official client with liveSse, and the
// raw stream: its headers, data frames, keep-alives, its end at the timeout and on rotation,
// and an exact resume from the up-to-date's global_last_seen_lsn.
import { Shape, ShapeStream, type Row } from '@electric-sql/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'

const SSE_TIMEOUT_MS = 3000
const KEEP_ALIVE_MS = 300

let source: TestDatabase
let engine: TestEngine
const aborters: AbortController[] = []

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(`
    create table feed (id int primary key, body text);
    insert into feed values (1, 'one'), (2, 'two')`)
  engine = await startTestEngine(source.url, {
    sseTimeoutMs: SSE_TIMEOUT_MS,
    keepAliveMs: KEEP_ALIVE_MS,
  })
}, 60_000)

afterAll(async () => {
  for (const a of aborters) a.abort()
  await engine?.destroy()
  await source?.drop()
})

const aborter = () => {
  const a = new AbortController()
  aborters.push(a)
  return a
}

/** Pages a shape to its tip without live: the handle and offset a client would hold. */
async function tip(query: string) {
  let response = await fetch(`${engine.shapeUrl}?${query}&offset=-1`)
  const handle = response.headers.get('electric-handle') ?? ''
  for (let i = 0; i < 10; i++) {
    const offset = response.headers.get('electric-offset') ?? ''
    if (response.headers.has('electric-up-to-date')) return { handle, offset }
    response = await fetch(
      `${engine.shapeUrl}?${query}&offset=${offset}&handle=${handle}`,
    )
  }
  throw new Error('never reached the tip')
}

/** An open SSE response, and what it has sent so far (read as it arrives). */
function openSse(query: string, signal: AbortSignal) {
  const state = { text: '', ended: false, response: null as Response | null }
  const done = (async () => {
    const response = await fetch(`${engine.shapeUrl}?${query}`, { signal })
    state.response = response
    const reader = response.body?.getReader()
    const decoder = new TextDecoder()
    while (reader) {
      const { done: end, value } = await reader.read()
      if (end) break
      state.text += decoder.decode(value)
    }
    state.ended = true
  })().catch(() => {
    state.ended = true
  })
  const frames = () =>
    state.text
      .split('\n\n')
      .filter((f) => f.startsWith('data: '))
      .map(
        (f) =>
          JSON.parse(f.slice('data: '.length)) as {
            value?: Record<string, string>
            headers: Record<string, string>
          },
      )
  return { state, frames, done }
}

describe('SSE live mode', () => {
  it('the official client with liveSse follows inserts, updates and deletes over one stream', async () => {
    const urls: string[] = []
    const types: string[] = []
    const stream = new ShapeStream<Row>({
      url: engine.shapeUrl,
      params: { table: 'feed' },
      liveSse: true,
      signal: aborter().signal,
      fetchClient: async (input, init) => {
        const response = await fetch(input, init)
        urls.push(String(input))
        types.push(response.headers.get('content-type') ?? '')
        return response
      },
    })
    const shape = new Shape(stream)
    expect((await shape.rows).map((r) => r.id).sort()).toEqual([1, 2])
    await source.db.query(`insert into feed values (3, 'three')`)
    await source.db.query(`update feed set body = 'uno' where id = 1`)
    await source.db.query(`delete from feed where id = 2`)
    await expect
      .poll(() =>
        shape.currentRows
          .map((r) => [r.id, r.body])
          .sort((a, b) => Number(a[0]) - Number(b[0])),
      )
      .toEqual([
        [1, 'uno'],
        [3, 'three'],
      ])
    const live = urls.findIndex((u) => u.includes('live_sse=true'))
    expect(live).toBeGreaterThanOrEqual(0)
    expect(types[live]).toBe('text/event-stream')
    // One stream carried all three changes: no fallback to long-polling.
    expect(
      urls.filter((u) => u.includes('live=true') && !u.includes('live_sse')),
    ).toEqual([])
  })

  it('streams data frames and up-to-dates, with Electric’s headers, and keep-alives while quiet', async () => {
    const { handle, offset } = await tip('table=feed')
    const sse = openSse(
      `table=feed&offset=${offset}&handle=${handle}&live=true&live_sse=true&cursor=1`,
      aborter().signal,
    )
    await expect.poll(() => sse.state.text).toContain(': keep-alive\n\n')
    const headers = sse.state.response?.headers
    expect(headers?.get('content-type')).toBe('text/event-stream')
    expect(headers?.get('cache-control')).toBe(
      `public, max-age=${SSE_TIMEOUT_MS / 1000 - 1}`,
    )
    expect(headers?.get('electric-handle')).toBe(handle)
    expect(headers?.get('electric-offset')).toBe(offset)
    expect(Number(headers?.get('electric-cursor'))).toBeGreaterThan(1)
    // Three rows in one transaction, then a quiet stream again.
    await source.db.query(
      `insert into feed values (10, 'a'), (11, 'b'), (12, 'c')`,
    )
    await expect.poll(() => sse.frames().length).toBe(4)
    const frames = sse.frames()
    expect(frames.slice(0, 3).map((f) => f.value?.id)).toEqual([
      '10',
      '11',
      '12',
    ])
    expect(frames[3]?.headers).toEqual({
      control: 'up-to-date',
      global_last_seen_lsn: expect.stringMatching(/^\d+$/),
    })
    // The client resumes from `<lsn>_0`: nothing of that transaction comes again.
    const lsn = frames[3]?.headers.global_last_seen_lsn ?? ''
    const resumed = await fetch(
      `${engine.shapeUrl}?table=feed&offset=${lsn}_0&handle=${handle}`,
    )
    expect(
      ((await resumed.json()) as Array<{ key?: string }>).filter((m) => m.key),
    ).toEqual([])
  })

  it('ends after its timeout, and at once when the shape is rotated', async () => {
    const { handle, offset } = await tip('table=feed')
    const started = Date.now()
    const timed = openSse(
      `table=feed&offset=${offset}&handle=${handle}&live=true&experimental_live_sse=true`,
      aborter().signal,
    )
    await timed.done
    expect(timed.state.response?.status).toBe(200)
    expect(Date.now() - started).toBeGreaterThanOrEqual(SSE_TIMEOUT_MS - 100)

    const where = encodeURIComponent('id > 100')
    const rotated = await tip(`table=feed&where=${where}`)
    const sse = openSse(
      `table=feed&where=${where}&offset=${rotated.offset}&handle=${rotated.handle}&live=true&live_sse=true`,
      aborter().signal,
    )
    await expect.poll(() => sse.state.response?.status).toBe(200)
    const deletedAt = Date.now()
    const deleted = await fetch(`${engine.shapeUrl}?handle=${rotated.handle}`, {
      method: 'DELETE',
    })
    expect(deleted.status).toBe(202)
    await sse.done
    expect(Date.now() - deletedAt).toBeLessThan(SSE_TIMEOUT_MS / 2)
    // The client's next request names the old handle and is sent to the new shape.
    const next = await fetch(
      `${engine.shapeUrl}?table=feed&where=${where}&offset=${rotated.offset}&handle=${rotated.handle}&live=true&live_sse=true`,
    )
    expect(next.status).toBe(409)
  })

  it('lets the client fall back to long-polling when streams keep ending early', async () => {
    // Streams that end before the client's minimum (a second) look like a buffering proxy.
    const short = await startTestEngine(source.url, { sseTimeoutMs: 100 })
    try {
      const urls: string[] = []
      const stream = new ShapeStream<Row>({
        url: short.shapeUrl,
        params: { table: 'feed' },
        liveSse: true,
        signal: aborter().signal,
        fetchClient: (input, init) => {
          urls.push(String(input))
          return fetch(input, init)
        },
      })
      const shape = new Shape(stream)
      await shape.rows
      const longPolls = () =>
        urls.filter((u) => u.includes('live=true') && !u.includes('live_sse'))
      await expect
        .poll(() => longPolls().length, { timeout: 15_000 })
        .toBeGreaterThan(0)
      await source.db.query(`insert into feed values (20, 'polled')`)
      await expect
        .poll(() => shape.currentRows.some((r) => r.id === 20), {
          timeout: 15_000,
        })
        .toBe(true)
    } finally {
      await short.destroy()
    }
  }, 40_000)

  it('refuses live_sse without live', async () => {
    const bad = await fetch(
      `${engine.shapeUrl}?table=feed&offset=-1&live_sse=true`,
    )
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({
      message: 'Invalid request',
      errors: { live_sse: ["can't be true unless live is also true"] },
    })
  })
})
