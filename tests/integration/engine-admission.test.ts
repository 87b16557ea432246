// Admission control on the engine's listener (http/admission.ts), under a load of raw
// requests: past each kind's limit an immediate 503 with Electric's body and a Retry-After,
// parked long-polls holding their permits while they wait; and the official client, refused,
// backs off and then syncs.
import { ShapeStream, isChangeMessage, type Row } from '@electric-sql/client'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'
import {
  heldPost,
  rawGet,
  rawLoad,
  type RawAnswer,
} from '../support/raw-load.ts'
import { waitUntil } from '../support/wait.ts'

const LIMITS = { initial: 2, existing: 20 }

let source: TestDatabase
let engine: TestEngine
const cleanups: Array<() => void> = []

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(`create table notes (id int primary key, body text)`)
  await source.db.query(`insert into notes values (1, 'a'), (2, 'b')`)
  engine = await startTestEngine(source.url, {
    maxConcurrentRequests: LIMITS,
  })
}, 60_000)

afterAll(async () => {
  for (const cleanup of cleanups) cleanup()
  await engine?.destroy()
  await source?.drop()
})

const whereOf = (from: number) =>
  `table=notes&where=${encodeURIComponent(`id >= ${from}`)}`

/** A shape of its own (`id >= from`) read to its tip with plain requests. */
async function tipOf(from: number) {
  let url = `${engine.shapeUrl}?${whereOf(from)}&offset=-1`
  for (let i = 0; i < 10; i++) {
    const response = await fetch(url)
    expect(response.status).toBe(200)
    await response.body?.cancel()
    const handle = response.headers.get('electric-handle') ?? ''
    const offset = response.headers.get('electric-offset') ?? ''
    const next = `${engine.shapeUrl}?${whereOf(from)}&offset=${offset}&handle=${handle}`
    if (response.headers.has('electric-up-to-date'))
      return { handle, live: `${next}&live=true` }
    url = next
  }
  throw new Error('never reached the tip')
}

function expectRefused(answer: RawAnswer, kind: string, limit: number) {
  expect(answer.status).toBe(503)
  expect(JSON.parse(answer.body)).toEqual({
    code: 'concurrent_request_limit_exceeded',
    message: `Concurrent ${kind} request limit exceeded (limit: ${limit}), please retry`,
  })
  const retryAfter = Number(answer.headers['retry-after'])
  expect(retryAfter).toBeGreaterThanOrEqual(6)
  expect(retryAfter).toBeLessThanOrEqual(10)
  expect(answer.headers['cache-control']).toBe('no-store')
  expect(answer.headers['access-control-allow-origin']).toBe('*')
}

it('refuses live requests past the limit at once, while the admitted ones stay parked', async () => {
  const tip = await tipOf(100)
  const shape = engine.database.byHandle(tip.handle)
  const load = rawLoad(Array.from({ length: 100 }, () => tip.live))
  cleanups.push(load.stop)
  // The refused are answered at once; the admitted wait for a change (20 s long-poll).
  await waitUntil('80 answers', () => load.answers.length >= 80)
  await waitUntil('20 parked polls', () => shape?.waitingRequests === 20)
  expect(load.answers).toHaveLength(80)
  for (const answer of load.answers)
    expectRefused(answer, 'existing', LIMITS.existing)
  // A change answers the parked: their permits were held while they waited, not queued.
  await source.db.query(`insert into notes values (101, 'woken')`)
  const answers = await load.done
  const admitted = answers.filter((a) => a.status === 200)
  expect(admitted).toHaveLength(20)
  for (const answer of admitted) expect(answer.body).toContain('"woken"')
  // Their permits are back: a full round is admitted again.
  const again = await tipOf(100)
  const next = rawLoad(Array.from({ length: 20 }, () => again.live))
  cleanups.push(next.stop)
  await waitUntil('20 parked again', () => shape?.waitingRequests === 20)
  expect(next.answers).toHaveLength(0)
  next.stop()
  // Admission's release runs on the same close, before the poll leaves its shape.
  await waitUntil('the polls gone', () => shape?.waitingRequests === 0)
})

it('counts an SSE stream for as long as it is open', async () => {
  const tip = await tipOf(400)
  const streams = Array.from({ length: LIMITS.existing }, () => {
    const aborter = new AbortController()
    cleanups.push(() => aborter.abort())
    return {
      aborter,
      response: fetch(`${tip.live}&live_sse=true`, { signal: aborter.signal }),
    }
  })
  for (const { response } of streams) expect((await response).status).toBe(200)
  const refused = await rawGet(tip.live).answer
  expectRefused(refused, 'existing', LIMITS.existing)
  for (const { aborter } of streams) aborter.abort()
  // Their permits come back as the engine sees them close: a catch-up request is answered.
  const catchUp = tip.live.replace('&live=true', '')
  await waitUntil(
    'a request admitted again',
    async () => (await rawGet(catchUp).answer).status === 200,
  )
})

it('counts requests that may create shapes apart; the official client backs off and then syncs', async () => {
  const tip = await tipOf(1)
  const shape = engine.database.byHandle(tip.handle)
  // Two requests without a handle held open: the initial limit is full.
  const holds = [1, 2].map(() =>
    heldPost(`${engine.shapeUrl}?${whereOf(200)}&offset=-1`),
  )
  cleanups.push(...holds.map((h) => () => h.release()))
  let refused: RawAnswer | null = null
  await waitUntil('a refused initial request', async () => {
    const { answer } = rawGet(`${engine.shapeUrl}?${whereOf(300)}&offset=-1`)
    const got = await answer
    if (got.status === 503) refused = got
    return refused !== null
  })
  expectRefused(refused as unknown as RawAnswer, 'initial', LIMITS.initial)

  // Requests on a shape this engine serves are still admitted.
  const live = rawGet(tip.live)
  live.answer.catch(() => {}) // ended below, unanswered
  await waitUntil('the live request parked', () => shape?.waitingRequests === 1)
  live.req.destroy()

  const statuses: number[] = []
  const aborter = new AbortController()
  cleanups.push(() => aborter.abort())
  const stream = new ShapeStream({
    url: engine.shapeUrl,
    params: { table: 'notes', where: 'id < 100' },
    signal: aborter.signal,
    fetchClient: async (input, init) => {
      const response = await fetch(input, init)
      statuses.push(response.status)
      return response
    },
  })
  const rows = new Map<string, Row>()
  let upToDate = false
  stream.subscribe((messages) => {
    for (const message of messages) {
      if (isChangeMessage(message)) rows.set(message.key, message.value)
      else if (message.headers.control === 'up-to-date') upToDate = true
    }
  })
  await waitUntil('the client refused', () => statuses.includes(503))
  expect(upToDate).toBe(false)
  for (const hold of holds) hold.release()
  // Retry-After is 6..10 s: the client waits at least that before asking again.
  await waitUntil('the client synced', () => upToDate, 20_000)
  expect(statuses[0]).toBe(503)
  expect(statuses.slice(statuses.lastIndexOf(503) + 1)).not.toContain(503)
  expect([...rows.values()].map((r) => r.body).sort()).toEqual(['a', 'b'])
}, 30_000)
