// Removing what Sluice created on a user's database when its source is deleted: the slot
// (which otherwise keeps WAL forever) and the publication.
import pg from 'pg'
import {
  pinnedConnection,
  type HostPinner,
  dropSlotAndPublication,
  type ReplicationNames,
} from '../../../engine/index.ts'
import { problemOf, withPassword } from './connection-url.ts'
import type { Problem } from './lifecycle.ts'
import type { RunnableSource } from './rows.ts'
import { storedPassword, UNDECRYPTABLE } from './stored-password.ts'

const CONNECT_TIMEOUT_MS = 10_000
const STATEMENT_TIMEOUT_MS = 30_000

/** `pinHost`: the address guard, checked on this connect like on every other to a source. */
async function dropReplication(
  connectionString: string,
  names: ReplicationNames,
  pinHost: HostPinner,
): Promise<void> {
  const client = new pg.Client({
    connectionString,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    ...pinnedConnection(pinHost),
  })
  client.on('error', () => {})
  await client.connect()
  try {
    await dropSlotAndPublication(client, names.slot, names.publication)
  } finally {
    await client.end().catch(() => {})
  }
}

/**
 * Drops a deleted source's slot and publication with its stored password: null when done,
 * else the problem to show on the source (what failed, never the password).
 */
export async function dropSourceReplication(
  row: Pick<RunnableSource, 'id' | 'connection_url' | 'encrypted_password'>,
  names: ReplicationNames,
  key: Buffer,
  pinHost: HostPinner,
): Promise<Problem | null> {
  const password = storedPassword(key, row)
  if (password instanceof Error) return { message: UNDECRYPTABLE, own: true }
  try {
    await dropReplication(
      withPassword(row.connection_url, password),
      names,
      pinHost,
    )
    return null
  } catch (error) {
    return problemOf(error as Error & { code?: string }, password)
  }
}
