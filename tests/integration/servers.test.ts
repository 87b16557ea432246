// Several server processes on one control plane: each claims only the sources of
// its regions (SLUICE_REGIONS), every event a server writes names it (SLUICE_INSTANCE_ID), and
// a server that does not hold a source forwards its actions and apps' shapes to the holder.
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
  INTERNAL_SECRET,
  signIn,
  sourceDatabase,
  startNode,
  stopNode,
  type Node,
} from '../support/servers.ts'
import { waitUntil } from '../support/wait.ts'

// A busy machine: a source takes seconds to become active.
const WAIT = { timeout: 60_000, interval: 100 }

let root: string
let control: TestDatabase
const databases: { name: string; drop(): Promise<void> }[] = []
/** Slots of servers stopped so far (each server has one on the control plane). */
const dropSlots = () =>
  dropLeftSlots([control.name, ...databases.map((db) => db.name)])
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'sluice-servers-'))
  await chmod(root, 0o755)
  control = await createTestDatabase()
})
afterAll(async () => {
  await dropSlots()
  await control.drop()
  for (const database of databases) await database.drop()
  await rm(root, { recursive: true, force: true, maxRetries: 5 })
})

/** Who wrote each of the source's events (the API's create aside). */
async function writers(sourceId: string) {
  const { rows } = await control.db.query<{ instance_id: string }>(
    `select distinct instance_id from source_event_logs
      where source_id = $1 and event_name <> $2`,
    [sourceId, SOURCE_EVENTS.created],
  )
  return rows.map((row) => row.instance_id)
}

async function stateOf(sourceId: string) {
  const { rows } = await control.db.query<{ state: string }>(
    'select state from sources where id = $1',
    [sourceId],
  )
  return rows[0]?.state
}

describe('two servers in two regions on one control plane', () => {
  let eu: Node
  let us: Node
  beforeAll(async () => {
    ;[eu, us] = await Promise.all([
      startNode(control, root, 'srv-eu', { SLUICE_REGIONS: 'eu-west-1' }),
      startNode(control, root, 'srv-us', { SLUICE_REGIONS: 'us-east-1' }),
    ])
  }, 120_000)
  afterAll(async () => {
    await Promise.all([stopNode(eu), stopNode(us)])
    await dropSlots()
  })

  it('each holds only its region’s sources, and the events name the server that wrote them', async () => {
    const user = await signIn(eu.base, 'regions@example.com')
    const [euDb, usDb] = await Promise.all([sourceDatabase(), sourceDatabase()])
    databases.push(euDb, usDb)
    // Both made through the EU server: where a source is created does not decide who runs it.
    const euSource = await createSource(eu.base, user, 'eu-west-1', euDb.url)
    const usSource = await createSource(eu.base, user, 'us-east-1', usDb.url)

    await expect.poll(() => stateOf(euSource.id), WAIT).toBe('active')
    await expect.poll(() => stateOf(usSource.id), WAIT).toBe('active')
    expect(await writers(euSource.id)).toEqual(['srv-eu'])
    expect(await writers(usSource.id)).toEqual(['srv-us'])
    const { rows } = await control.db.query<{ instance_id: string }>(
      'select instance_id from source_event_logs where source_id = $1 and event_name = $2',
      [usSource.id, SOURCE_EVENTS.created],
    )
    expect(rows).toEqual([{ instance_id: 'srv-eu' }])

    // Each follows the control plane on a slot of its own (one shared slot would stall one).
    for (const node of [eu, us])
      await expect
        .poll(() => node.output(), WAIT)
        .toContain('control-plane sync active')
  }, 120_000)
})

describe('an action or an app’s shape through a server that does not hold the source', () => {
  let holder: Node
  let front: Node
  beforeAll(async () => {
    // The front runs another region only, so it never takes the source over: it forwards.
    ;[holder, front] = await Promise.all([
      // Debug: request lines show which request id each server handled the call under.
      startNode(control, root, 'srv-holder', {
        SLUICE_REGIONS: 'eu-west-1',
        LOG_LEVEL: 'debug',
      }),
      startNode(control, root, 'srv-front', {
        SLUICE_REGIONS: 'us-east-1',
        LOG_LEVEL: 'debug',
      }),
    ])
  }, 120_000)
  afterAll(async () => {
    await Promise.all([stopNode(holder), stopNode(front)])
    await dropSlots()
  })

  it('is answered by the holder: restart, clear cache, explorer, live shapes, delete, /v1/shape live', async () => {
    const user = await signIn(front.base, 'forward@example.com')
    const database = await sourceDatabase()
    const doomed = await sourceDatabase()
    databases.push(database, doomed)
    await database.query(
      'create table items (id int primary key, title text not null)',
    )
    await database.query(`insert into items values (1, 'one'), (2, 'two')`)
    const source = await createSource(
      front.base,
      user,
      'eu-west-1',
      database.url,
    )
    const other = await createSource(front.base, user, 'eu-west-1', doomed.url)
    await expect.poll(() => stateOf(source.id), WAIT).toBe('active')
    await expect.poll(() => stateOf(other.id), WAIT).toBe('active')
    const { rows: holders } = await control.db.query(
      'select instance_id, internal_url from source_holders where source_id = $1',
      [source.id],
    )
    expect(holders).toEqual([
      { instance_id: 'srv-holder', internal_url: holder.base },
    ])

    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${front.base}/api/v1/sources/${path}`, {
        ...init,
        headers: {
          cookie: user.cookie,
          origin: front.base,
          ...(init.body ? { 'content-type': 'application/json' } : {}),
        },
      })

    // The explorer's reads.
    const schema = await api(`${source.id}/schema`)
    expect(schema.status).toBe(200)
    // One request id across both servers: the front's goes along to the holder.
    const frontId = schema.headers.get('x-request-id')
    expect(frontId).toBeTruthy()
    for (const node of [front, holder])
      await expect.poll(() => node.output()).toContain(frontId)
    expect(await schema.json()).toContainEqual({
      schema: 'public',
      name: 'items',
    })
    const count = await api(`${source.id}/count?schema=public&name=items`)
    expect(await count.json()).toEqual({ count: 2 })

    // A plain shape request through the front, then that live shape's delete.
    const fresh = await fetch(
      `${front.base}/v1/shape?${new URLSearchParams({ table: 'items', offset: '-1', source_id: source.id, source_secret: source.source_secret })}`,
    )
    expect(fresh.status).toBe(200)
    const handle = fresh.headers.get('electric-handle') ?? ''
    await fresh.arrayBuffer()
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
    expect(await deletedShape.json()).toMatchObject({ handle })

    // An app's shape, live, through the front (the official client).
    const aborter = new AbortController()
    const stream = new ShapeStream({
      url: `${front.base}/v1/shape`,
      params: {
        table: 'items',
        source_id: source.id,
        source_secret: source.source_secret,
      },
      signal: aborter.signal,
    })
    const shape = new Shape(stream)
    try {
      expect((await shape.rows).map((row) => row.title).sort()).toEqual([
        'one',
        'two',
      ])
      await database.query(`insert into items values (3, 'three')`)
      await expect
        .poll(() => shape.currentRows.map((row) => row.title).sort(), WAIT)
        .toEqual(['one', 'three', 'two'])
    } finally {
      aborter.abort()
    }

    // Restart and clear cache: the holder acts, and its events name it.
    const restart = await api(`${source.id}/restart`, {
      method: 'POST',
      body: JSON.stringify({}),
    })
    expect(restart.status).toBe(200)
    expect(await restart.json()).toMatchObject({ id: source.id })
    const cleared = await api(`${source.id}/restart`, {
      method: 'POST',
      body: JSON.stringify({ clear_cache: true }),
    })
    expect(cleared.status).toBe(200)
    const { rows: events } = await control.db.query(
      `select event_name, instance_id from source_event_logs
        where source_id = $1 and event_name = any($2) order by event_name`,
      [source.id, [SOURCE_EVENTS.restarted, SOURCE_EVENTS.cacheCleared]],
    )
    expect(events).toEqual([
      { event_name: SOURCE_EVENTS.cacheCleared, instance_id: 'srv-holder' },
      { event_name: SOURCE_EVENTS.restarted, instance_id: 'srv-holder' },
    ])

    // Delete: the holder marks it and removes its slot at once (it was kicked, not polled).
    const deleted = await api(other.id, { method: 'DELETE' })
    expect(deleted.status).toBe(200)
    await expect.poll(() => stateOf(other.id), WAIT).toBeUndefined()

    // A forwarded request with a wrong secret is refused by the holder.
    const forged = await fetch(
      `${holder.base}/api/v1/sources/${source.id}/schema`,
      {
        headers: { cookie: user.cookie, 'x-sluice-internal-secret': 'wrong' },
      },
    )
    expect(forged.status).toBe(401)

    // The holder dies; the front says so rather than hanging or passing on what the network said.
    holder.child.kill('SIGKILL')
    await holder.exited
    const orphan = await api(`${source.id}/schema`)
    expect(orphan.status).toBe(503)
    expect(await orphan.json()).toEqual({
      message:
        'The source is held by a server that does not answer. Try again shortly.',
    })
    for (const node of [front, holder])
      expect(node.output()).not.toContain(INTERNAL_SECRET)
  }, 180_000)
})

describe('takeover: the holder is killed under a client', () => {
  const COLUMNS = ['id', 'title']

  /** Two servers of one region; the client follows through the second, which holds nothing. */
  async function killTheHolder(shared: boolean) {
    const name = shared ? 'shared' : 'own'
    const fast = {
      SLUICE_REGIONS: 'eu-west-1',
      SLUICE_CLAIM_INTERVAL_MS: '300',
    }
    const first = await startNode(control, root, `srv-${name}-1`, fast)
    let second: Node | undefined
    try {
      const user = await signIn(first.base, `takeover-${name}@example.com`)
      const database = await sourceDatabase()
      databases.push(database)
      await database.query(
        'create table items (id int primary key, title text not null)',
      )
      await database.query(
        `insert into items select n, 'row ' || n from generate_series(1, 200) n`,
      )
      const source = await createSource(
        first.base,
        user,
        'eu-west-1',
        database.url,
      )
      await expect.poll(() => stateOf(source.id), WAIT).toBe('active')
      second = await startNode(control, root, `srv-${name}-2`, {
        ...fast,
        // Shared storage: the same data dir path, so the shape logs are the same files.
        ...(shared ? { DATA_DIR: join(root, `srv-${name}-1`) } : {}),
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
        const handle = follower.handles.at(-1)

        first.child.kill('SIGKILL')
        await first.exited
        // Writes while nobody holds the source, and after.
        await database.query(
          `insert into items select n, 'row ' || n from generate_series(201, 300) n`,
        )
        await database.query(
          `update items set title = 'changed' where id <= 10`,
        )
        await database.query('delete from items where id between 11 and 20')
        await expect
          .poll(async () => {
            const { rows } = await control.db.query(
              'select instance_id from source_holders where source_id = $1',
              [source.id],
            )
            return rows[0]?.instance_id
          }, WAIT)
          .toBe(second.instanceId)
        await database.query(`insert into items values (301, 'after')`)
        await waitUntil(
          'the client to match the source',
          async () => compare(follower, await truth(), COLUMNS).same,
          60_000,
        ).catch(explain(follower))
        return { follower, handle }
      } finally {
        follower.stop()
      }
    } finally {
      await Promise.all([stopNode(first), stopNode(second)])
      await dropSlots()
    }
  }

  it('with its own storage, the new holder answers 409 and the client refetches and converges', async () => {
    const { follower, handle } = await killTheHolder(false)
    expect(follower.refetches).toBeGreaterThanOrEqual(1)
    expect(follower.handles.at(-1)).not.toBe(handle)
  }, 180_000)

  it('with shared storage, the new holder continues the same handle', async () => {
    const { follower, handle } = await killTheHolder(true)
    expect(follower.refetches).toBe(0)
    expect(follower.handles).toEqual([handle])
  }, 180_000)
})
