// The replication-mode pg.Client and the few node-postgres internals the COPY BOTH
// sub-protocol needs (verified against pg 8.23 / pg-protocol 1.x), typed in one place.
import type { Duplex } from 'node:stream'
import pg from 'pg'
import { pinnedConnection, type HostPinner } from './pinned-socket.ts'

/**
 * Session settings for Postgres text output, as the shape protocol prescribes. pgoutput
 * renders values with the walsender's own settings, so they are set on that session.
 */
const DISPLAY_SETTINGS: Readonly<Record<string, string>> = {
  DateStyle: 'ISO, DMY',
  TimeZone: 'UTC',
  bytea_output: 'hex',
  IntervalStyle: 'iso_8601',
  extra_float_digits: '1',
}

/** What pg.Client's `connection` offers beyond its published types. */
export type CopyBothConnection = {
  readonly stream: Duplex
  on(event: 'copyData', listener: (message: { chunk: Buffer }) => void): void
  /** pg-protocol's name for CopyBothResponse: the server is now streaming. */
  once(event: 'replicationStart', listener: () => void): void
  sendCopyFromChunk(chunk: Buffer): void
  /** Sends CopyDone. */
  endCopyFrom(): void
}

export type ReplicationClient = {
  client: pg.Client
  connection: CopyBothConnection
}

/**
 * `sessionOptions`: extra startup options (`-c name=value ...`), e.g. for search_path.
 * `pinHost`: checks and pins the host's address for this connection (a user's database).
 */
export async function connectForReplication(
  connectionString: string,
  sessionOptions?: string,
  pinHost?: HostPinner,
  connectTimeoutMs?: number,
): Promise<ReplicationClient> {
  // `replication` is honoured by pg (startup parameter) but missing from @types/pg.
  const config: pg.ClientConfig & { replication: string } = {
    connectionString,
    replication: 'database',
    keepAlive: true,
    // Through a partition a connect would wait on TCP's own retries, minutes.
    ...(connectTimeoutMs ? { connectionTimeoutMillis: connectTimeoutMs } : {}),
    application_name: 'sluice-replication',
    ...(sessionOptions ? { options: sessionOptions } : {}),
    ...pinnedConnection(pinHost),
  }
  const client = new pg.Client(config)
  // A connection lost before the stream listens (below, while setting up) fails the statement
  // under way; an unheard 'error' event would also crash the process.
  client.on('error', () => {})
  await client.connect()
  try {
    // Plain SQL is allowed on a logical replication connection before START_REPLICATION.
    // Set even when sessionOptions has them: the protocol's text format is not optional.
    const sets = Object.entries(DISPLAY_SETTINGS).map(
      ([name, value]) => `SET ${name} = '${value}'`,
    )
    await client.query(sets.join('; '))
  } catch (error) {
    await client.end().catch(() => {})
    throw error
  }
  return {
    client,
    connection: client.connection as unknown as CopyBothConnection,
  }
}
