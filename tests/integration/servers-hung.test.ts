// A hung holder: the server holding a source is alive but does not answer (SIGSTOP).
// Actions forwarded to it answer the clear 503 within the forward bound; its claims stop being
// refreshed, so the other server of its region ends its claims session and takes the source
// over within SLUICE_HOLDER_STALE_MS and a pass, and a client following through that server
// converges. Woken (SIGCONT), the old holder notices it lost its claims and stops serving.
import { chmod, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../../src/server/platform/db/database.ts'
import { compare, explain, follow, truthOf } from '../faults/support.ts'
import {
  adminQuery,
  createTestDatabase,
  type TestDatabase,
} from '../support/database.ts'
import {
  createSource,
  dropLeftSlots,
  holderOf,
  signIn,
  sourceDatabase,
  startNode,
  stateOf,
  stopNode,
  type Node,
} from '../support/servers.ts'
import { waitUntil } from '../support/wait.ts'

const WAIT = { timeout: 60_000, interval: 100 }
const COLUMNS = ['id', 'title']
const STALE_MS = 2_000
const MESSAGE =
  'The source is held by a server that does not answer. Try again shortly.'

let root: string
let control: TestDatabase
const databases: { name: string; drop(): Promise<void> }[] = []
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'sluice-hung-'))
  await chmod(root, 0o755)
  control = await createTestDatabase()
})
afterAll(async () => {
  await dropLeftSlots([control.name, ...databases.map((db) => db.name)])
  await control.drop()
  for (const database of databases) await database.drop()
  await rm(root, { recursive: true, force: true, maxRetries: 5 })
})

describe('a holder that hangs', () => {
  let first: Node | undefined
  let second: Node | undefined
  afterAll(async () => {
    first?.child.kill('SIGCONT')
    await Promise.all([stopNode(first), stopNode(second)])
  })

  it('answers 503 in bounded time, loses its sources to its region peer, and stops serving them when it wakes', async () => {
    const env = {
      SLUICE_REGIONS: 'eu-west-1',
      SLUICE_CLAIM_INTERVAL_MS: '300',
      SLUICE_HOLDER_STALE_MS: String(STALE_MS),
    }
    first = await startNode(control, root, 'srv-hung-1', env)
    const user = await signIn(first.base, 'hung@example.com')
    const database = await sourceDatabase()
    databases.push(database)
    // The stopped holder's walsender keeps the slot until it gives up on its silent client
    // (wal_sender_timeout, 60 s by default): shortened so the test does not wait a minute.
    await adminQuery(
      `alter database ${database.name} set wal_sender_timeout = '3s'`,
    )
    await database.query(
      'create table items (id int primary key, title text not null)',
    )
    await database.query(
      `insert into items select n, 'row ' || n from generate_series(1, 100) n`,
    )
    const source = await createSource(
      first.base,
      user,
      'eu-west-1',
      database.url,
    )
    await expect.poll(() => stateOf(control, source.id), WAIT).toBe('active')
    expect(await holderOf(control, source.id)).toBe('srv-hung-1')
    second = await startNode(control, root, 'srv-hung-2', env)

    const api = (node: Node, path: string) =>
      fetch(`${node.base}/api/v1/sources/${source.id}/${path}`, {
        headers: { cookie: user.cookie, origin: node.base },
      })
    const query = new URLSearchParams({
      source_id: source.id,
      source_secret: source.source_secret,
    })
    const follower = follow(`${second.base}/v1/shape?${query}`, 'items')
    const truth = () =>
      truthOf(database.client as unknown as Db, 'items', COLUMNS)
    try {
      await waitUntil(
        'the first rows',
        async () => compare(follower, await truth(), COLUMNS).same,
      ).catch(explain(follower))

      // A live SSE stream through the second server, already answering when the holder stops.
      const start = await fetch(
        `${second.base}/v1/shape?${query}&table=items&offset=-1`,
      )
      await start.arrayBuffer()
      const sse = await fetch(
        `${second.base}/v1/shape?${query}&${new URLSearchParams({
          table: 'items',
          handle: start.headers.get('electric-handle') ?? '',
          offset: start.headers.get('electric-offset') ?? '',
          live: 'true',
          live_sse: 'true',
        })}`,
      )
      expect(sse.status).toBe(200)
      const sseEnded = sse
        .arrayBuffer()
        .then(
          () => 'ended',
          () => 'cut',
        )
        .then((how) => ({ how, at: performance.now() }))

      first.child.kill('SIGSTOP')
      const stopped = performance.now()
      // Forwarded to the stopped holder: the clear 503, an action within the forward bound
      // (15 s), and both (a shape's bound is 60 s) as soon as the second server ends the
      // holder's claims session rather than at their timeouts.
      const [orphan, orphanShape] = await Promise.all([
        api(second, 'schema'),
        fetch(`${second.base}/v1/shape?${query}&table=items&offset=-1`),
      ])
      expect(orphan.status).toBe(503)
      expect(orphan.headers.get('retry-after')).toBe('5')
      expect(await orphan.json()).toEqual({ message: MESSAGE })
      expect(orphanShape.status).toBe(503)
      expect(await orphanShape.json()).toEqual({ message: MESSAGE })
      expect(performance.now() - stopped).toBeLessThan(12_000)
      // The stream that was flowing is cut too, so its client reconnects to the new holder.
      const ended = await Promise.race([
        sseEnded,
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 20_000)),
      ])
      expect(
        ended,
        'the SSE stream through the second server stays open',
      ).not.toBeNull()
      expect((ended?.at ?? Infinity) - stopped).toBeLessThan(12_000)

      // Taken over within the bound and a pass or two (the process never answered).
      await expect
        .poll(() => holderOf(control, source.id), WAIT)
        .toBe('srv-hung-2')
      expect(performance.now() - stopped).toBeLessThan(30_000)
      expect(second.output()).toContain(
        'srv-hung-1 stopped answering for its claims',
      )
      await database.query(
        `insert into items select n, 'row ' || n from generate_series(101, 150) n`,
      )
      await database.query(`update items set title = 'changed' where id <= 10`)
      await waitUntil(
        'the client to match the source after the takeover',
        async () => compare(follower, await truth(), COLUMNS).same,
        120_000,
      ).catch(explain(follower))
      const served = await api(second, 'schema')
      expect(served.status).toBe(200)

      // Woken: it finds its claims session ended and lets go; it forwards rather than serves.
      first.child.kill('SIGCONT')
      await expect
        .poll(() => first?.output(), WAIT)
        .toContain(
          'lost the control-plane session holding source claims; letting go of all',
        )
      const throughFirst = await api(first, 'count?schema=public&name=items')
      expect(throughFirst.status).toBe(200)
      expect(await throughFirst.json()).toEqual({ count: 150 })
      expect(await holderOf(control, source.id)).toBe('srv-hung-2')
      // One process streams the slot: the old holder's runs nothing any more.
      await database.query(`insert into items values (151, 'after waking')`)
      await waitUntil(
        'the client to match the source after the old holder woke',
        async () => compare(follower, await truth(), COLUMNS).same,
        60_000,
      ).catch(explain(follower))
      expect(await holderOf(control, source.id)).toBe('srv-hung-2')
      expect(await stateOf(control, source.id)).toBe('active')
    } finally {
      follower.stop()
    }
  }, 300_000)
})
