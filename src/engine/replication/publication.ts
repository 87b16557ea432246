// The per-database publication and its settings, and the errors of bringing a table into it
// (publish-table.ts), each actionable: what is wrong and what to run.
import { quoteIdent, sqlState, type Queryable } from '../pg/sql.ts'
import { UnavailableError } from '../unavailable.ts'

const DUPLICATE_OBJECT = '42710'
const INSUFFICIENT_PRIVILEGE = '42501'

/**
 * The longest any statement Sluice runs on a user's database waits for a lock. A lock request
 * waiting behind a long open transaction makes every later statement on the table queue behind
 * it too: one shape request stalled the user's writes for as long as that transaction stayed
 * open (fault F8). Past this the statement fails, the request answers 503 and is tried later.
 */
export const LOCK_WAIT_MS = 200

/** A table's lock could not be had within LOCK_WAIT_MS. */
export class TableBusyError extends Error {
  constructor(
    target: string,
    /** Statements that did run before the busy one (publish-table.ts). */
    readonly ran: string[] = [],
  ) {
    super(
      `Table ${target} is busy: another transaction holds a lock on it, and Sluice does not wait behind it (the application's own statements would then wait behind Sluice). Try again once that transaction ends.`,
    )
    this.name = 'TableBusyError'
  }
}

/**
 * A table Postgres cannot replicate as it is (a view, an unlogged table, generated columns
 * the server cannot publish): the request is wrong for this database, whatever its timing.
 */
export class UnreplicableTableError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UnreplicableTableError'
  }
}

/** A setup step the connecting role may not perform; `sql` is what someone must run instead. */
export class ReplicationSetupError extends Error {
  constructor(
    message: string,
    readonly sql: string,
    readonly table?: { schema: string; name: string },
    /** Statements that did run before the refused one (publish-table.ts). */
    readonly ran: string[] = [],
  ) {
    super(message)
    this.name = 'ReplicationSetupError'
  }
}

/**
 * With ELECTRIC_MANUAL_TABLE_PUBLISHING the engine alters no table and no publication: a
 * table not set up is answered 503 (as Electric answers it) with the SQL someone must run,
 * and the request succeeds once they have.
 */
export class ManualPublishingError extends UnavailableError {
  constructor(
    message: string,
    readonly sql: string,
  ) {
    super(`${message}. Run: ${sql}`)
    this.name = 'ManualPublishingError'
  }
}

/**
 * How the publication publishes, whatever made it (an older Sluice made it with
 * publish_via_partition_root = true):
 * - partitions under their own names, so a shape on one partition sees its changes; shapes on
 *   the partitioned table get them too (shapes/partitions.ts);
 * - stored generated columns too, where Postgres can (18 on): without them a table with one
 *   could not be replicated at all, and with REPLICA IDENTITY FULL Postgres 18 would refuse
 *   the application's own UPDATE and DELETE on it.
 */
function wantedSettings(version: number): string {
  return version >= GENERATED_COLUMNS_VERSION
    ? 'publish_via_partition_root = false, publish_generated_columns = stored'
    : 'publish_via_partition_root = false'
}

/** The first Postgres that publishes (stored) generated columns. */
export const GENERATED_COLUMNS_VERSION = 180000

/**
 * Creates the publication, empty, when missing; tables join it as shapes need them. An
 * existing one is brought to the settings above (`changed`).
 */
export async function ensurePublication(
  client: Queryable,
  name: string,
): Promise<{ created: boolean; ran?: string }> {
  const version = await serverVersion(client)
  const { rows } = await client.query<{ viaroot: string; gencols: string }>(
    `select pubviaroot::text as viaroot,
            ${version >= GENERATED_COLUMNS_VERSION ? 'pubgencols' : "'n'"}::text as gencols
       from pg_publication where pubname = $1`,
    [name],
  )
  const found = rows[0]
  if (found) {
    const wanted = version >= GENERATED_COLUMNS_VERSION ? 's' : 'n'
    if (found.viaroot === 'false' && found.gencols === wanted)
      return { created: false }
    const statement = `ALTER PUBLICATION ${quoteIdent(name)} SET (${wantedSettings(version)});`
    await client.query(statement)
    return { created: false, ran: statement }
  }
  const sql = `CREATE PUBLICATION ${quoteIdent(name)} WITH (${wantedSettings(version)})`
  try {
    await client.query(sql)
    return { created: true }
  } catch (error) {
    if (sqlState(error) === DUPLICATE_OBJECT) return { created: false }
    if (sqlState(error) === INSUFFICIENT_PRIVILEGE) {
      const { rows: who } = await client.query<{ user: string; db: string }>(
        'select current_user as user, current_database() as db',
      )
      const role = quoteIdent(who[0]?.user ?? '')
      const grant = `GRANT CREATE ON DATABASE ${quoteIdent(who[0]?.db ?? '')} TO ${role};`
      throw new ReplicationSetupError(
        `Role ${role} may not create publications in this database. ` +
          `Run as the database owner: ${grant}`,
        grant,
      )
    }
    throw error
  }
}

/**
 * For ELECTRIC_MANUAL_TABLE_PUBLISHING: the publication must exist with the settings above,
 * publishing every operation; the engine creates and alters none. Throws
 * ReplicationSetupError with the SQL to run otherwise.
 */
export async function checkPublication(
  client: Queryable,
  name: string,
): Promise<void> {
  const version = await serverVersion(client)
  const { rows } = await client.query<{ all: string; settings: string }>(
    `select (pubinsert and pubupdate and pubdelete and pubtruncate)::text as all,
            (not pubviaroot ${version >= GENERATED_COLUMNS_VERSION ? "and pubgencols = 's'" : ''})::text
              as settings
       from pg_publication where pubname = $1`,
    [name],
  )
  const found = rows[0]
  const quoted = quoteIdent(name)
  if (!found) {
    const sql = `CREATE PUBLICATION ${quoted} WITH (${wantedSettings(version)});`
    throw new ReplicationSetupError(
      `Publication ${quoted} not found in the database, and ELECTRIC_MANUAL_TABLE_PUBLISHING keeps the engine from creating it. Run: ${sql}`,
      sql,
    )
  }
  if (found.all !== 'true') {
    const sql = `ALTER PUBLICATION ${quoted} SET (publish = 'insert, update, delete, truncate');`
    throw new ReplicationSetupError(
      `Publication ${quoted} does not publish all required operations: INSERT, UPDATE, DELETE, TRUNCATE. Run: ${sql}`,
      sql,
    )
  }
  if (found.settings !== 'true') {
    const sql = `ALTER PUBLICATION ${quoted} SET (${wantedSettings(version)});`
    throw new ReplicationSetupError(
      `Publication ${quoted} must publish partitions under their own names${version >= GENERATED_COLUMNS_VERSION ? ' and stored generated columns' : ''}. Run: ${sql}`,
      sql,
    )
  }
}

/** `server_version_num`: 180001 for 18.1. */
async function serverVersion(client: Queryable): Promise<number> {
  const { rows } = await client.query<{ v: string }>(
    `select current_setting('server_version_num') as v`,
  )
  return Number(rows[0]?.v ?? 0)
}
