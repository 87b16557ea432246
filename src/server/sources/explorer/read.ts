// How the shape explorer uses a source's pool: one client per step, every statement in a
// READ ONLY transaction under its own statement_timeout. A client that failed other than by a
// Postgres error (the network, the driver's own timeout while a statement may still run) is
// destroyed rather than handed to the next request.
import type pg from 'pg'
import { isSqlState } from '../../validation/sqlstate.ts'

export async function withClient<T>(
  pool: pg.Pool,
  use: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect()
  let broken: Error | undefined
  try {
    return await use(client)
  } catch (error) {
    if (!isSqlState((error as { code?: string }).code)) broken = error as Error
    throw error
  } finally {
    client.release(broken)
  }
}

/** Runs `read` in a READ ONLY transaction whose statements Postgres cancels after `timeoutMs`. */
export async function readOnly<T>(
  client: pg.ClientBase,
  timeoutMs: number,
  read: () => Promise<T>,
): Promise<T> {
  await client.query('BEGIN READ ONLY')
  try {
    await client.query(`SELECT set_config('statement_timeout', $1, true)`, [
      String(timeoutMs),
    ])
    const result = await read()
    await client.query('COMMIT')
    return result
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  }
}
