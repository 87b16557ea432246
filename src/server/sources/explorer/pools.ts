// The shape explorer's connections to users' databases: one small read-only pool per active
// source run here, so listing tables and counting rows never opens a connection per request.
// Every connection goes through the source's address guard, as the engine's own do. The
// runtime closes a source's pool when the source stops being active, is removed or forgotten,
// and when the server stops; the next request after it is active again opens a new one.
import pg from 'pg'
import {
  SESSION_OPTIONS,
  pinnedConnection,
  type HostPinner,
  type TableName,
} from '../../../engine/index.ts'
import { databaseFailure, type Answer, type Credentials } from './answers.ts'
import {
  countRows,
  type CountLimits,
  type CountRequest,
  type RowCount,
} from './count.ts'
import { readOnly, withClient } from './read.ts'
import { listTables } from './tables.ts'

export type ExplorerLimits = CountLimits

/** A few seconds for a count, so the explorer answers while the user waits; planning and the
 * catalog take far less. */
export const DEFAULT_EXPLORER_LIMITS: ExplorerLimits = {
  countTimeoutMs: 3_000,
  statementTimeoutMs: 2_000,
}

// One dashboard asks one table's count at a time and the table list now and then; a second
// connection lets the two overlap. More would only load a user's database on our behalf.
const MAX_CONNECTIONS = 2
const IDLE_TIMEOUT_MS = 30_000
const CONNECT_TIMEOUT_MS = 5_000
// The driver's own limit, past every statement_timeout: it ends the wait for a database that
// stops answering altogether, which Postgres' own limit cannot.
const NO_ANSWER_MARGIN_MS = 5_000

type SourceConnection = Credentials & {
  /** The source's URL with its password, as the engine connects with it. */
  connectionString: string
}

/** What the explorer can read of one source. Neither call throws for a database failure. */
export type SourceExplorer = {
  tables(): Promise<Answer<TableName[]>>
  count(request: CountRequest): Promise<Answer<RowCount>>
}

export class ExplorerPools {
  private readonly open = new Map<
    string,
    { pool: pg.Pool; explorer: SourceExplorer }
  >()
  private readonly closing = new Set<Promise<void>>()

  constructor(
    private readonly pinHost: HostPinner,
    private readonly limits: ExplorerLimits,
  ) {}

  /** The source's explorer, its pool opened on first use. */
  explorer(sourceId: string, connection: SourceConnection): SourceExplorer {
    let entry = this.open.get(sourceId)
    if (!entry) {
      const pool = this.createPool(connection.connectionString)
      entry = { pool, explorer: this.explorerOver(pool, connection) }
      this.open.set(sourceId, entry)
    }
    return entry.explorer
  }

  /**
   * Closes the source's pool without waiting: a read under way finishes (within its time
   * limit) and its connection then closes too.
   */
  close(sourceId: string): void {
    const entry = this.open.get(sourceId)
    if (!entry) return
    this.open.delete(sourceId)
    const ended: Promise<void> = entry.pool
      .end()
      .catch(() => {})
      .finally(() => this.closing.delete(ended))
    this.closing.add(ended)
  }

  /** Closes every pool and waits until their connections are gone. */
  async closeAll(): Promise<void> {
    for (const sourceId of [...this.open.keys()]) this.close(sourceId)
    await Promise.all([...this.closing])
  }

  private createPool(connectionString: string): pg.Pool {
    const { countTimeoutMs, statementTimeoutMs } = this.limits
    const pool = new pg.Pool({
      connectionString,
      application_name: 'sluice-explorer',
      // The engine's display settings (the where clause's SQL is written for them), every
      // transaction read-only, and a statement limit for any statement that sets none.
      options: `${SESSION_OPTIONS} -c default_transaction_read_only=on -c statement_timeout=${statementTimeoutMs}`,
      max: MAX_CONNECTIONS,
      idleTimeoutMillis: IDLE_TIMEOUT_MS,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout:
        Math.max(countTimeoutMs, statementTimeoutMs) + NO_ANSWER_MARGIN_MS,
      // A pool opens connections lazily: each one is resolved, checked and pinned as it opens.
      ...pinnedConnection(this.pinHost),
    })
    // An idle connection the server closed only leaves the pool; the next read opens another.
    pool.on('error', () => {})
    // So does one lost while a read holds it: its read fails (the pool listens on idle ones
    // only, and an unheard 'error' would crash the process).
    pool.on('connect', (client) => client.on('error', () => {}))
    return pool
  }

  private explorerOver(
    pool: pg.Pool,
    credentials: Credentials,
  ): SourceExplorer {
    const answer = async <T>(read: () => Promise<Answer<T>>) =>
      read().catch((error: unknown) => {
        // A bug is not the database's failure: app.onError logs it and answers 500.
        if (error instanceof TypeError || error instanceof ReferenceError)
          throw error
        return databaseFailure(error, credentials)
      })
    const { statementTimeoutMs } = this.limits
    return {
      tables: () =>
        answer(async () => ({
          ok: true,
          value: await withClient(pool, (client) =>
            readOnly(client, statementTimeoutMs, () => listTables(client)),
          ),
        })),
      count: (request) => answer(() => countRows(pool, request, this.limits)),
    }
  }
}
