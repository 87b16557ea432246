// The apps' shape endpoint keeps a shape's tip a second and names its up-to-date's LSN in the
// ETag (docs/protocol.md, "Engine's own"), where the standalone engine follows Electric's ages.
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { signInLocally } from '../support/app.ts'
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
let source: { id: string; secret: string }

beforeAll(async () => {
  server = await startSourceServer(control.db)
  const signedIn = await signInLocally(server.app)
  database = await createSourceDatabase()
  await database.db.query('create table items (id int primary key)')
  await database.db.query('insert into items values (1)')
  source = await insertSource(
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
}, 60_000)

afterAll(async () => {
  await server?.stop()
  await database?.drop()
})

const get = (params: Record<string, string>) =>
  fetch(
    `${server.origin}/v1/shape?${new URLSearchParams({
      table: 'items',
      source_id: source.id,
      source_secret: source.secret,
      ...params,
    })}`,
  )

it('pins the tip to a second, its ETag naming the LSN its up-to-date claims', async () => {
  let response = await get({ offset: '-1' })
  expect(response.headers.get('cache-control')).toMatch(
    /^public, max-age=604800/,
  )
  const handle = response.headers.get('electric-handle') ?? ''
  // Bounded: one row, a page or two.
  for (let i = 0; i < 10 && !response.headers.has('electric-up-to-date'); i++) {
    const offset = response.headers.get('electric-offset') ?? ''
    await response.body?.cancel()
    response = await get({ offset, handle })
  }
  expect(response.headers.has('electric-up-to-date')).toBe(true)
  const offset = response.headers.get('electric-offset') ?? ''
  await response.body?.cancel()
  response = await get({ offset, handle })
  expect(response.headers.get('cache-control')).toBe('public, max-age=1')
  const body = (await response.json()) as Array<{
    headers: { global_last_seen_lsn?: string }
  }>
  const lsn = body.at(-1)?.headers.global_last_seen_lsn ?? ''
  expect(response.headers.get('etag')).toBe(
    `"${handle}:${offset}:${offset}:${lsn}"`,
  )
})
