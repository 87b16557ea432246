// The worker's side of direct requests (src/app/db/worker/direct-request-server.ts) on real PGlite:
// rows for a read, the reason for a refusal, a read that waits for a transaction to end, and a
// write-back asked for.
import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  answer,
  type Held,
} from '../../src/app/db/worker/direct-request-server.ts'
import { NOT_HELD_HERE } from '../../src/app/db/shared/worker-messages.ts'

let pg: PGlite
let flushes = 0
const held = (): Held => ({
  database: Promise.resolve(pg),
  flush: async () => {
    flushes++
  },
  release: async () => {},
})
// Loading PGlite's wasm takes seconds on a busy 2-core machine (10 s was seen not to be enough).
beforeAll(async () => {
  pg = await PGlite.create()
  await pg.exec(`create table teams (id int primary key, name text)`)
  await pg.exec(`insert into teams values (1, 'One'), (2, 'Two')`)
}, 120_000)
afterAll(() => pg.close())

describe('direct requests', { timeout: 60_000 }, () => {
  it('answer with the rows, parameters bound', async () => {
    const reply = await answer(held(), {
      kind: 'read',
      id: 7,
      sql: 'select name from teams where id = $1',
      params: [2],
    })
    expect(reply).toEqual({ id: 7, rows: [{ name: 'Two' }] })
  })

  it('say so when this worker does not hold the database', async () => {
    expect(
      await answer(null, { id: 1, kind: 'read', sql: 'select 1', params: [] }),
    ).toEqual({ id: 1, error: NOT_HELD_HERE })
  })

  it('report a failing statement', async () => {
    const reply = await answer(held(), {
      kind: 'read',
      id: 2,
      sql: 'select * from no_such_table',
      params: [],
    })
    expect(reply).toMatchObject({
      id: 2,
      error: expect.stringMatching(/no_such_table/),
    })
  })

  it('wait for a transaction in progress, never running inside it', async () => {
    // The transaction renames, then rolls back: a read run inside it (the one Postgres session)
    // would see the new name.
    let finish: () => void = () => {}
    const finishing = new Promise<void>((resolve) => (finish = resolve))
    const transaction = pg.transaction(async (tx) => {
      await tx.query(`update teams set name = 'Renamed' where id = 1`)
      await finishing
      throw new Error('rolled back')
    })
    const read = answer(held(), {
      kind: 'read',
      id: 3,
      sql: 'select name from teams where id = 1',
      params: [],
    })
    finish()
    await expect(transaction).rejects.toThrow('rolled back')
    expect(await read).toEqual({ id: 3, rows: [{ name: 'One' }] })
  })

  it('write back when asked, and say when it is done', async () => {
    const before = flushes
    expect(await answer(held(), { id: 4, kind: 'flush' })).toEqual({
      id: 4,
      done: true,
    })
    expect(flushes).toBe(before + 1)
    expect(await answer(null, { id: 5, kind: 'flush' })).toEqual({
      id: 5,
      error: NOT_HELD_HERE,
    })
  })
})
