// The first visit's "synced once" check on real PGlite with the shipped client schema and
// pglite-sync's metadata table: it waits for every list, not only for rows that happen to be
// there, and it holds while the user's row has landed and their team list has not.
import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrateLocal } from '../../src/app/db/shared/migrations.ts'
import { syncedOnce } from '../../src/app/db/shared/synced-once.ts'

const userId = '00000000-0000-4000-8000-000000000001'
const teamId = '00000000-0000-4000-8000-0000000000aa'
let pg: PGlite
const check = () => syncedOnce((sql, params) => pg.query(sql, params), userId)

// What pglite-sync writes when a subscription applies its first up-to-date snapshot.
const landed = (key: string) =>
  pg.query(
    `insert into electric.subscriptions_metadata (key, shape_metadata, last_lsn)
     values ($1, '{}', '0')`,
    [key],
  )

describe('syncedOnce', () => {
  beforeAll(async () => {
    pg = await PGlite.create()
    await migrateLocal(pg)
  }, 120_000)
  afterAll(() => pg.close())

  it('is false until the sync has started', async () => {
    expect(await check()).toBe(false)
  })

  it('waits for the team list, even when the user row is there', async () => {
    // pglite-sync's own table layout (subscriptionState.ts), made when a tab starts syncing.
    await pg.exec(`create schema electric;
      create table electric.subscriptions_metadata
        (key text primary key, shape_metadata jsonb not null, last_lsn text not null)`)
    await pg.query(
      `insert into users (id, name, email, created_at)
       values ($1, 'Ada', 'ada@example.com', now())`,
      [userId],
    )
    await landed(`user:${userId}`)
    expect(await check()).toBe(false)
  })

  it("then waits for each team's sources and members", async () => {
    await pg.query(
      `insert into user_teams (user_id, team_id, name) values ($1, $2, 'Ada''s team')`,
      [userId, teamId],
    )
    await landed(`teams:${userId}`)
    expect(await check()).toBe(false)
    await landed(`team:${teamId}:sources`)
    expect(await check()).toBe(false)
    await landed(`team:${teamId}:team_members`)
    expect(await check()).toBe(true)
  })
})
