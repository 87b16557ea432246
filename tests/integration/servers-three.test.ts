// Three server processes on one control plane: two in eu-west-1, one in us-east-1.
// Every action and an app's live shape (the official client) answered through each server that
// does not hold the source; then the holder is SIGKILLed: the other server of its region takes
// the source over (never the us one), the client converges (count and checksum), and the us
// source is untouched. One set of processes for the whole file.
import { Shape, ShapeStream } from '@electric-sql/client'
import { chmod, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../../src/server/platform/db/database.ts'
import { SOURCE_EVENTS } from '../../src/shared/sources.ts'
import { compare, explain, follow, truthOf } from '../faults/support.ts'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
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

let root: string
let control: TestDatabase
const databases: { name: string; drop(): Promise<void> }[] = []
let nodes: Node[] = []

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'sluice-servers3-'))
  await chmod(root, 0o755)
  control = await createTestDatabase()
  const eu = { SLUICE_REGIONS: 'eu-west-1', SLUICE_CLAIM_INTERVAL_MS: '300' }
  nodes = await Promise.all([
    startNode(control, root, 'srv-eu-a', eu),
    startNode(control, root, 'srv-eu-b', eu),
    startNode(control, root, 'srv-us', {
      SLUICE_REGIONS: 'us-east-1',
      SLUICE_CLAIM_INTERVAL_MS: '300',
    }),
  ])
}, 120_000)
afterAll(async () => {
  await Promise.all(nodes.map((node) => stopNode(node)))
  await dropLeftSlots([control.name, ...databases.map((db) => db.name)])
  await control.drop()
  for (const database of databases) await database.drop()
  await rm(root, { recursive: true, force: true, maxRetries: 5 })
})

const byId = (id: string) => {
  const node = nodes.find((n) => n.instanceId === id)
  if (!node) throw new Error(`no server ${id}`)
  return node
}

describe('three servers, two regions, one control plane', () => {
  it('answers every action and a live shape through each non-holder; a killed holder’s region peer takes over', async () => {
    const [euA, , us] = nodes as [Node, Node, Node]
    const user = await signIn(euA.base, 'three@example.com')
    const [euDb, doomedDb, usDb] = await Promise.all([
      sourceDatabase(),
      sourceDatabase(),
      sourceDatabase(),
    ])
    databases.push(euDb, doomedDb, usDb)
    await euDb.query(
      'create table items (id int primary key, title text not null)',
    )
    await euDb.query(
      `insert into items select n, 'row ' || n from generate_series(1, 100) n`,
    )
    await usDb.query('create table notes (id int primary key)')
    // Made through the us server: where a source is created does not decide who runs it.
    const source = await createSource(us.base, user, 'eu-west-1', euDb.url)
    const doomed = await createSource(us.base, user, 'eu-west-1', doomedDb.url)
    const usSource = await createSource(us.base, user, 'us-east-1', usDb.url)
    for (const id of [source.id, doomed.id, usSource.id])
      await expect.poll(() => stateOf(control, id), WAIT).toBe('active')

    const holderId = await holderOf(control, source.id)
    expect(['srv-eu-a', 'srv-eu-b']).toContain(holderId)
    expect(await holderOf(control, usSource.id)).toBe('srv-us')
    const holder = byId(holderId ?? '')
    const others = nodes.filter((node) => node !== holder)
    const peer = others.find((node) => node.instanceId !== 'srv-us')!

    // Every action, through each server that does not hold the source.
    for (const front of others) {
      const api = (path: string, init: RequestInit = {}) =>
        fetch(`${front.base}/api/v1/sources/${path}`, {
          ...init,
          headers: {
            cookie: user.cookie,
            origin: front.base,
            ...(init.body ? { 'content-type': 'application/json' } : {}),
          },
        })
      const schema = await api(`${source.id}/schema`)
      expect(schema.status).toBe(200)
      expect(await schema.json()).toContainEqual({
        schema: 'public',
        name: 'items',
      })
      const count = await api(`${source.id}/count?schema=public&name=items`)
      expect(await count.json()).toEqual({ count: 100 })

      // A live shape through this server (the official client), then the shape's delete.
      const aborter = new AbortController()
      const stream = new ShapeStream({
        url: `${front.base}/v1/shape`,
        params: {
          table: 'items',
          where: `id <= 3`,
          source_id: source.id,
          source_secret: source.source_secret,
        },
        signal: aborter.signal,
      })
      const shape = new Shape(stream)
      const marker = `via ${front.instanceId}`
      try {
        expect((await shape.rows).length).toBe(3)
        await euDb.query(`update items set title = '${marker}' where id = 1`)
        await expect
          .poll(
            () => shape.currentRows.find((row) => row.id === 1)?.title,
            WAIT,
          )
          .toBe(marker)
      } finally {
        aborter.abort()
      }
      const handle = stream.shapeHandle ?? ''
      await expect
        .poll(async () => {
          const { rows } = await control.db.query(
            'select 1 from source_shapes where source_id = $1 and handle = $2',
            [source.id, handle],
          )
          return rows.length
        }, WAIT)
        .toBe(1)
      const deletedShape = await api(`${source.id}/shapes/${handle}`, {
        method: 'DELETE',
      })
      expect(deletedShape.status).toBe(200)

      const restart = await api(`${source.id}/restart`, {
        method: 'POST',
        body: JSON.stringify({}),
      })
      expect(restart.status).toBe(200)
      const cleared = await api(`${source.id}/restart`, {
        method: 'POST',
        body: JSON.stringify({ clear_cache: true }),
      })
      expect(cleared.status).toBe(200)
      await expect.poll(() => stateOf(control, source.id), WAIT).toBe('active')
    }
    // Restarted and cleared twice each, every time by the holder.
    const { rows: events } = await control.db.query(
      `select event_name, instance_id, count(*)::int as n from source_event_logs
        where source_id = $1 and event_name = any($2)
        group by 1, 2 order by 1`,
      [source.id, [SOURCE_EVENTS.restarted, SOURCE_EVENTS.cacheCleared]],
    )
    expect(events).toEqual([
      { event_name: SOURCE_EVENTS.cacheCleared, instance_id: holderId, n: 2 },
      { event_name: SOURCE_EVENTS.restarted, instance_id: holderId, n: 2 },
    ])
    // Delete through the us server: the eu holder removes it.
    const deleted = await fetch(`${us.base}/api/v1/sources/${doomed.id}`, {
      method: 'DELETE',
      headers: { cookie: user.cookie, origin: us.base },
    })
    expect(deleted.status).toBe(200)
    await expect.poll(() => stateOf(control, doomed.id), WAIT).toBeUndefined()

    // Takeover: a client follows through the us server; the holder is killed under it.
    const usBefore = await control.db.query(
      'select instance_id, claimed_at from source_holders where source_id = $1',
      [usSource.id],
    )
    const usEvents = async () =>
      (
        await control.db.query(
          'select count(*)::int as n from source_event_logs where source_id = $1',
          [usSource.id],
        )
      ).rows[0]?.n as number
    const usEventsBefore = await usEvents()
    const query = new URLSearchParams({
      source_id: source.id,
      source_secret: source.source_secret,
    })
    const follower = follow(`${us.base}/v1/shape?${query}`, 'items')
    const truth = () => truthOf(euDb.client as unknown as Db, 'items', COLUMNS)
    try {
      await waitUntil(
        'the first rows',
        async () => compare(follower, await truth(), COLUMNS).same,
      ).catch(explain(follower))
      holder.child.kill('SIGKILL')
      await holder.exited
      await euDb.query(
        `insert into items select n, 'row ' || n from generate_series(101, 200) n`,
      )
      await euDb.query(`update items set title = 'changed' where id <= 10`)
      await euDb.query('delete from items where id between 11 and 20')
      await expect
        .poll(() => holderOf(control, source.id), WAIT)
        .toBe(peer.instanceId)
      await euDb.query(`insert into items values (201, 'after')`)
      await waitUntil(
        'the client to match the source',
        async () => compare(follower, await truth(), COLUMNS).same,
        60_000,
      ).catch(explain(follower))
    } finally {
      follower.stop()
    }

    // The other region's source: same holder, same claim, no event since.
    const usAfter = await control.db.query(
      'select instance_id, claimed_at from source_holders where source_id = $1',
      [usSource.id],
    )
    expect(usAfter.rows).toEqual(usBefore.rows)
    expect(await usEvents()).toBe(usEventsBefore)
    expect(await stateOf(control, usSource.id)).toBe('active')
  }, 300_000)
})
