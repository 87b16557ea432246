// An app moving from Electric Cloud: its proxy, written the way Electric Cloud's docs write one
// (every client parameter copied onto the origin URL, then `source_id` and `secret` added),
// with only the origin's host changed to Sluice's. The official client and a TanStack DB
// collection sync through it, live, as they did through Electric Cloud.
import { Shape, ShapeStream } from '@electric-sql/client'
import { createCollection } from '@tanstack/db'
import { electricCollectionOptions } from '@tanstack/electric-db-collection'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { signInLocally } from '../support/app.ts'
import { startShapeProxy } from '../support/cli.ts'
import { useControlPlaneDatabase } from '../support/database.ts'
import {
  createSourceDatabase,
  insertSource,
  personalTeam,
  sourceRow,
  startSourceServer,
  type SourceDatabase,
  type SourceServer,
} from '../support/sources.ts'

const control = useControlPlaneDatabase()
let server: SourceServer
let database: SourceDatabase
let proxy: { url: string; stop: () => Promise<void> }
let proxyUrl: string
const cleanups: Array<() => void> = []

beforeAll(async () => {
  server = await startSourceServer(control.db)
  const signedIn = await signInLocally(server.app)
  database = await createSourceDatabase()
  await database.db.query(
    'create table todos (id int8 primary key, title text not null, done bool not null)',
  )
  await database.db.query(
    `insert into todos values (1, 'write', false), (2, 'ship', false)`,
  )
  const source = await insertSource(
    control.db,
    server.key,
    await personalTeam(control.db, signedIn.user.id),
    database.url,
  )
  await vi.waitFor(
    async () =>
      expect((await sourceRow(control.db, source.id))?.state).toBe('active'),
    { timeout: 20_000, interval: 50 },
  )
  // The app's proxy. On Electric Cloud its origin was https://api.electric-sql.cloud/v1/shape;
  // the move changes that host (and the two values it adds), nothing else.
  proxy = await startShapeProxy(server.origin, () => Promise.resolve(source))
  proxyUrl = proxy.url
}, 60_000)

afterAll(async () => {
  for (const cleanup of cleanups) cleanup()
  await proxy?.stop()
  await server?.stop()
  await database?.drop()
})

type Todo = { id: string; title: string; done: boolean }

it('syncs through the official client, live', async () => {
  const aborter = new AbortController()
  cleanups.push(() => aborter.abort())
  const shape = new Shape(
    new ShapeStream({
      url: proxyUrl,
      params: { table: 'todos', where: 'done = false' },
      signal: aborter.signal,
    }),
  )
  const titles = async () =>
    (await shape.rows).map((row) => String(row.title)).sort()
  expect(await titles()).toEqual(['ship', 'write'])
  await database.db.query(`insert into todos values (3, 'test', false)`)
  await database.db.query(`update todos set done = true where id = 1`)
  await expect
    .poll(() => shape.currentRows.map((row) => String(row.title)).sort(), {
      timeout: 10_000,
    })
    .toEqual(['ship', 'test'])
})

it('syncs a TanStack DB collection, live', async () => {
  const todos = createCollection(
    electricCollectionOptions<Todo>({
      id: 'cloud-proxy-todos',
      getKey: (todo) => todo.id,
      shapeOptions: {
        url: proxyUrl,
        params: { table: 'todos' },
        parser: { int8: (v: string) => v },
      },
    }),
  )
  cleanups.push(() => void todos.cleanup())
  await todos.preload()
  const held = () =>
    todos.toArray.map((t) => `${t.id}:${t.title}:${t.done}`).sort()
  const expected = async () =>
    (
      await database.db.query<{ row: string }>(
        `select id || ':' || title || ':' || done as row from todos order by 1`,
      )
    ).rows.map((r) => r.row)
  await expect.poll(held).toEqual(await expected())
  await database.db.query(`update todos set title = 'shipped' where id = 2`)
  await database.db.query(`delete from todos where id = 3`)
  await expect.poll(held, { timeout: 10_000 }).toEqual(await expected())
})
