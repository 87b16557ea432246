// The store's sync (src/app/db/worker/sync.ts) against the real server: a real PGlite with the
// client migrations and pglite-sync, the dashboard's shapes served by the gateway and the
// engine over the control plane. A team the user leaves: its sync ends and its rows leave the
// store (the store stops syncing what is gone, and keeps nothing of it).
import { PGlite } from '@electric-sql/pglite'
import { live } from '@electric-sql/pglite/live'
import { electricSync } from '@electric-sql/pglite-sync'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { claimOwner } from '../../src/app/db/shared/local-owner.ts'
import { migrateLocal } from '../../src/app/db/shared/migrations.ts'
import { startSync, type SyncedPg } from '../../src/app/db/worker/sync.ts'
import type { ShapeDatabase } from '../../src/engine/database.ts'
import { Engine } from '../../src/engine/engine.ts'
import {
  ORIGIN,
  signInLocally,
  buildApp,
  type App,
  type Browser,
} from '../support/app.ts'
import { useControlPlaneDatabase } from '../support/database.ts'
import { waitUntil } from '../support/wait.ts'

const database = useControlPlaneDatabase()
let engine: Engine
let shapes: ShapeDatabase
let app: App
let dataDir: string

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'sluice-store-sync-'))
  engine = new Engine({ dataDir })
  shapes = engine.attach(`store_sync_${Date.now()}`, database.url)
  app = buildApp(database.db, {}, { shapes })
  await vi.waitFor(() => expect(shapes.status).toBe('active'), {
    timeout: 30_000,
  })
}, 60_000)

afterAll(async () => {
  vi.unstubAllGlobals()
  await shapes.destroy()
  await engine.stop()
  await rm(dataDir, { recursive: true, force: true })
})

/** Every request of the sync goes to the app in this process, with the browser's cookie. */
function serveThrough(browser: Browser, asked: string[]) {
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    // As a browser's fetch: a request already aborted is never sent.
    init?.signal?.throwIfAborted()
    const url = new URL(input instanceof Request ? input.url : String(input))
    asked.push(`${url.pathname}${url.search}`)
    return browser.request(`${url.pathname}${url.search}`, init)
  })
}

async function storeRows(pg: PGlite, sql: string, params: unknown[]) {
  return (await pg.query(sql, params)).rows.length
}

describe("the store's sync", () => {
  it("ends a team's sync when the user leaves it, and its rows leave the store", async () => {
    const { browser, user } = await signInLocally(app)
    const { rows } = await database.db.query<{ id: string }>(
      `with team as (insert into teams (name) values ('Left behind') returning id),
            joined as (insert into memberships (team_id, user_id)
                       select id, $1 from team returning team_id)
       insert into sources (team_id, name, region, connection_url, source_secret)
       select team_id, 'theirs', 'eu-west-1', 'postgres://app@db.example.com/app',
              'sec_123456789' from joined
       returning team_id as id`,
      [user.id],
    )
    const teamId = rows[0]?.id ?? ''
    const asked: string[] = []
    serveThrough(browser, asked)

    const pg = (await PGlite.create({
      extensions: { live, electric: electricSync() },
    })) as unknown as PGlite & SyncedPg
    try {
      await migrateLocal(pg)
      await claimOwner(pg, user.id)
      startSync(
        pg,
        ORIGIN,
        () => {},
        Promise.resolve(),
        () => {},
      )
      const ofTeam = (table: string) =>
        storeRows(pg, `select 1 from ${table} where team_id = $1`, [teamId])
      await waitUntil(
        "the team's source and members in the store",
        async () =>
          (await ofTeam('sources')) === 1 &&
          (await ofTeam('team_members')) === 1,
        20_000,
      )

      await database.db.query(
        'delete from memberships where team_id = $1 and user_id = $2',
        [teamId, user.id],
      )
      await waitUntil(
        "the team's rows gone from the store",
        async () =>
          (await ofTeam('sources')) === 0 &&
          (await ofTeam('team_members')) === 0,
        20_000,
      )
      // Nothing of it is resumed later: its subscriptions are gone too.
      const { rows: keys } = await pg.query<{ key: string }>(
        'select key from electric.subscriptions_metadata where key like $1',
        [`%${teamId}%`],
      )
      expect(keys).toEqual([])
      const before = asked.filter((path) => path.includes(teamId)).length
      await database.db.query(
        `update sources set name = 'still theirs' where team_id = $1`,
        [teamId],
      )
      // The user's own shapes answer on: the sync is still running.
      await database.db.query(`update users set name = 'Ada' where id = $1`, [
        user.id,
      ])
      await waitUntil(
        'the rename of the user in the store',
        async () =>
          (await storeRows(
            pg,
            `select 1 from users where name = 'Ada'`,
            [],
          )) === 1,
        20_000,
      )
      expect(
        asked.filter((path) => path.includes(teamId)).slice(before),
      ).toEqual([])
    } finally {
      // Signed out: the sync stops every shape and empties the store before it closes.
      await pg.query('delete from local_owner')
      await waitUntil(
        'the store emptied',
        async () => (await storeRows(pg, 'select 1 from users', [])) === 0,
      )
      await pg.close()
    }
  }, 60_000)
})
