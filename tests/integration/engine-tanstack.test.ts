// TanStack DB's on-demand electric collection against the engine: a changes-only shape whose
// live query loads exactly its filtered, ordered, limited rows as a subset snapshot, then
// follows the changes to them.
import {
  BTreeIndex,
  createCollection,
  createLiveQueryCollection,
  eq,
} from '@tanstack/db'
import { electricCollectionOptions } from '@tanstack/electric-db-collection'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/database.ts'
import { startTestEngine, type TestEngine } from '../support/engine.ts'

type Player = { id: number; team: string; score: number; name: string }

let source: TestDatabase
let engine: TestEngine
const cleanups: Array<() => Promise<void>> = []

beforeAll(async () => {
  source = await createTestDatabase()
  await source.db.query(`
    create table players (id int primary key, team text not null, score int not null, name text not null);
    insert into players select i, case when i % 3 = 0 then 'red' else 'blue' end, i * 10, 'p' || i
      from generate_series(1, 30) i`)
  engine = await startTestEngine(source.url)
}, 60_000)

afterAll(async () => {
  for (const cleanup of cleanups) await cleanup()
  await engine?.destroy()
  await source?.drop()
})

describe('TanStack DB on-demand collections', () => {
  it('load a filtered, ordered, limited subset, then stay live', async () => {
    const requests: string[] = []
    const players = createCollection(
      electricCollectionOptions<Player>({
        id: 'players',
        syncMode: 'on-demand',
        // An index on what the live query orders by lets it load only its window.
        autoIndex: 'eager',
        defaultIndexType: BTreeIndex,
        getKey: (p) => p.id,
        shapeOptions: {
          url: engine.shapeUrl,
          params: { table: 'players' },
          fetchClient: (input, init) => {
            requests.push(String(input))
            return fetch(input, init)
          },
        },
      }),
    )
    const top = createLiveQueryCollection((q) =>
      q
        .from({ p: players })
        .where(({ p }) => eq(p.team, 'red'))
        .orderBy(({ p }) => p.score, 'desc')
        .limit(3)
        .select(({ p }) => ({ id: p.id, score: p.score })),
    )
    cleanups.push(
      () => top.cleanup(),
      () => players.cleanup(),
    )
    await top.preload()
    const ids = () => top.toArray.map((p) => p.id)
    await expect.poll(ids).toEqual([30, 27, 24])
    // Only the subset was loaded: the changes-only shape holds no snapshot of its own.
    expect(requests.some((u) => u.includes('log=changes_only'))).toBe(true)
    expect(requests.some((u) => u.includes('subset__limit=3'))).toBe(true)
    expect(players.size).toBeLessThan(30)

    await source.db.query(
      `insert into players values (31, 'red', 1000, 'star')`,
    )
    await expect.poll(ids, { timeout: 10_000 }).toEqual([31, 30, 27])
    await source.db.query(`update players set score = 5 where id = 30`)
    await source.db.query(`delete from players where id = 31`)
    // Rows leaving the window are replaced by the next ones, loaded on demand.
    await expect.poll(ids, { timeout: 10_000 }).toEqual([27, 24, 21])
    expect(top.toArray.find((p) => p.id === 27)).toMatchObject({
      id: 27,
      score: 270,
    })
  }, 30_000)
})
