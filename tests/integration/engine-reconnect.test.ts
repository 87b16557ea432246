// A database coming back after an outage: while it was down the engine's retries backed off
// (doubling to 10 s); once Postgres answers that it is starting up, the next try comes soon,
// not after the wait grown while nothing answered. The database stands behind a TCP proxy
// (tests/support/tcp-proxy.ts) that plays it down, then starting up, then back.
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { SupervisorStatus } from '../../src/engine/replication/supervisor.ts'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts'
import { waitUntil } from '../support/wait.ts'

let source: TestDatabase
let proxy: TcpProxy
let engine: TestEngine
let status: SupervisorStatus = 'starting'

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query('create table items (id int primary key)')
  const direct = new URL(source.url)
  proxy = await startTcpProxy({
    host: direct.hostname,
    port: Number(direct.port),
  })
  const through = new URL(source.url)
  through.port = String(proxy.port)
  engine = await startTestEngine(through.toString(), {
    events: { onStatus: (next) => (status = next) },
  })
  await waitUntil('the engine to replicate', () => status === 'active')
}, 60_000)

afterAll(async () => {
  await engine?.destroy()
  await proxy?.close()
  await source?.drop()
})

it('tries again soon after Postgres says it is starting up, whatever the backoff had grown to', async () => {
  const tries = (answer: string) =>
    proxy.accepted.filter((a) => a.answer === answer)
  proxy.down()
  // Five refused tries: the next wait is 3.2 s, and the one after it 6.4 s.
  await waitUntil('five refused tries', () => tries('down').length >= 5)
  expect(status).toBe('reconnecting')
  proxy.startingUp()
  await waitUntil(
    'a try told it is starting up',
    () => tries('starting-up').length >= 1,
  )
  const toldAt = tries('starting-up')[0]!.at
  proxy.heal()
  await waitUntil('the engine to replicate again', () => status === 'active')
  const next = proxy.accepted.find((a) => a.at > toldAt)
  // From the start of the backoff (100 ms): without that, 6.4 s.
  expect(next!.at - toldAt).toBeLessThan(3_000)
}, 60_000)
