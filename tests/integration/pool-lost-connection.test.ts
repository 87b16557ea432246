// A connection lost while a request holds it (Postgres restarted, a backend terminated): pg
// emits 'error' on the checked-out client, and the pool listens only on idle ones, so without a
// listener of its own the server process crashed (seen in fault F11: the whole server down when
// the control plane's Postgres restarted). The holder's statement fails; the process lives on,
// and the pool serves the next request with a new connection.
import { describe, expect, it } from 'vitest'
import { createPool } from '../../src/server/platform/db/database.ts'
import { adminQuery, useControlPlaneDatabase } from '../support/database.ts'

const database = useControlPlaneDatabase()

describe('a pool connection lost while checked out', () => {
  it('fails its holder, crashes nothing, and the pool goes on', async () => {
    const pool = createPool(database.url)
    const uncaught: unknown[] = []
    const record = (error: unknown) => uncaught.push(error)
    process.on('uncaughtException', record)
    try {
      const client = await pool.connect()
      const { rows } = await client.query<{ pid: number }>(
        'select pg_backend_pid() as pid',
      )
      const held = client.query('select pg_sleep(30)').then(
        () => null,
        (error: unknown) => error,
      )
      await adminQuery(`select pg_terminate_backend(${rows[0]?.pid ?? 0})`)
      expect(await held).toBeInstanceOf(Error)
      client.release(true)
      expect(uncaught).toEqual([])
      const again = await pool.query<{ n: number }>('select 1 as n')
      expect(again.rows).toEqual([{ n: 1 }])
    } finally {
      process.off('uncaughtException', record)
      await pool.end()
    }
  })
})
