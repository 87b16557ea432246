// The control-plane connection pool, and the start-up checks the rest of Sluice relies on.
import pg from 'pg'

export type Db = pg.Pool

export function createPool(url: string): Db {
  // A Postgres that hangs rather than refusing: a request waits 10 s for a connection, not
  // for ever (and then answers 503, below).
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 10_000,
  })
  // A client losing its server (e.g. Postgres restarting) must not crash the process: the
  // pool listens for that on idle clients only, so each client has a listener of its own too
  // (its holder's statement fails; the pool drops it on release).
  pool.on('error', () => {})
  pool.on('connect', (client) => client.on('error', () => {}))
  return pool
}

// Socket errors of a connection that cannot be made or was lost.
const LOST_SOCKET = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])
// What node-postgres says of a connection it lost or could not get in time.
const LOST_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/

/**
 * Whether an error says the control plane cannot be reached now (down, restarting, cut off),
 * rather than that a statement failed: such a request is worth retrying, and is a 503.
 */
export function controlPlaneUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string') {
    if (LOST_SOCKET.has(code)) return true
    // Class 08 (connection exception); 57P01-57P03: shut down, crashed, starting up.
    if (/^08|^57P0[123]$/.test(code)) return true
  }
  if (LOST_MESSAGE.test(error.message)) return true
  // An aggregate of every address tried (Node's happy eyeballs), each refused.
  const errors = (error as { errors?: unknown }).errors
  return Array.isArray(errors) && errors.some(controlPlaneUnavailable)
}

export async function transaction<T>(
  db: Db,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await db.connect()
  try {
    await client.query('begin')
    const result = await fn(client)
    await client.query('commit')
    return result
  } catch (error) {
    await client.query('rollback').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}

/** The engine streams the control plane over logical replication, so wal_level must be logical. */
export async function checkWalLevel(db: Db): Promise<void> {
  const { rows } = await db.query<{ wal_level: string }>('show wal_level')
  const level = rows[0]?.wal_level
  if (level !== 'logical')
    throw new Error(
      `DATABASE_URL points to a Postgres with wal_level=${level}; Sluice needs wal_level=logical. ` +
        `Run "ALTER SYSTEM SET wal_level = logical;" and restart that Postgres.`,
    )
}

/**
 * Runs a write and returns the id of its transaction as replication reports it (the 32-bit
 * xid in each change's `txids`), so the browser can wait until a synced row carries it.
 */
export async function transactionWithTxid<T>(
  db: Db,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<{ result: T; txid: number }> {
  return transaction(db, async (client) => {
    const result = await fn(client)
    const { rows } = await client.query<{ txid: string }>(
      'select pg_current_xact_id()::xid::text as txid',
    )
    return { result, txid: Number(rows[0]?.txid) }
  })
}
