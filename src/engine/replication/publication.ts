// The per-database publication, and bringing a table into it with REPLICA IDENTITY FULL (so
// updates and deletes carry whole old rows), with an actionable error when rights are missing.
import { qualifiedName, quoteIdent, sqlState, type Queryable } from './sql.ts'

const DUPLICATE_OBJECT = '42710'
const INSUFFICIENT_PRIVILEGE = '42501'
const LOCK_NOT_AVAILABLE = '55P03'

/**
 * How long publishing a table may wait for its lock. REPLICA IDENTITY FULL takes an ACCESS
 * EXCLUSIVE lock, and a lock request waiting behind a long open transaction makes every later
 * statement on the table wait behind it too: one shape request stalled the user's writes for
 * as long as that transaction stayed open (fault F8). Waiting at most this long bounds the
 * stall; the request then answers 503 and is tried again later (supervisor.ts).
 */
const PUBLISH_LOCK_TIMEOUT_MS = 200

/** The table's lock could not be had within PUBLISH_LOCK_TIMEOUT_MS. */
export class TableBusyError extends Error {
  constructor(target: string) {
    super(
      `Table ${target} is busy: a transaction holds a lock on it, and Sluice needs a moment's exclusive lock to set it up for replication (REPLICA IDENTITY FULL). Try again once that transaction ends.`,
    )
    this.name = 'TableBusyError'
  }
}

/** A setup step the connecting role may not perform; `sql` is what someone must run instead. */
export class ReplicationSetupError extends Error {
  constructor(
    message: string,
    readonly sql: string,
    readonly table?: { schema: string; name: string },
  ) {
    super(message)
    this.name = 'ReplicationSetupError'
  }
}

/** Creates the publication, empty, when missing; tables join it as shapes need them. */
export async function ensurePublication(
  client: Queryable,
  name: string,
): Promise<{ created: boolean }> {
  const { rows } = await client.query(
    'select 1 from pg_publication where pubname = $1',
    [name],
  )
  if (rows.length > 0) return { created: false }
  // Changes to a partition are published as changes to the partitioned table a shape names.
  const sql = `CREATE PUBLICATION ${quoteIdent(name)} WITH (publish_via_partition_root = true)`
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

type TableState = {
  replident: string
  owner: string
  owned: boolean
  published: boolean
  role: string
}

// Every column as text: callers may hand us clients with custom type parsers.
type TableStateRow = { [K in keyof TableState]: string }

/**
 * Sets REPLICA IDENTITY FULL on the table and adds it to the publication; a no-op when both
 * are already so. Both need ownership of the table: without it, throws ReplicationSetupError
 * naming the table and the SQL to run.
 */
export async function addTableToPublication(
  client: Queryable,
  publication: string,
  schema: string,
  table: string,
): Promise<{ changed: boolean }> {
  const target = qualifiedName(schema, table)
  const state = await tableState(client, publication, schema, table)
  if (!state) throw new Error(`Table ${target} does not exist`)
  if (state.replident === 'f' && state.published) return { changed: false }
  const statements = [
    `ALTER TABLE ${target} REPLICA IDENTITY FULL;`,
    `ALTER PUBLICATION ${quoteIdent(publication)} ADD TABLE ${target};`,
  ]
  const missingRights = () =>
    new ReplicationSetupError(
      `Sluice cannot replicate table ${target}: role ${quoteIdent(state.role)} does not own ` +
        `it (owner: ${quoteIdent(state.owner)}). Run as a superuser: ${statements.join(' ')} ` +
        `Or let ${quoteIdent(state.role)} act as the owner: ` +
        `GRANT ${quoteIdent(state.owner)} TO ${quoteIdent(state.role)};`,
      statements.join('\n'),
      { schema, name: table },
    )
  if (!state.owned) throw missingRights()
  try {
    // Identity first: once published, every change must carry the whole old row.
    if (state.replident !== 'f') await withLockTimeout(client, statements[0]!)
    if (!state.published) await withLockTimeout(client, statements[1]!)
  } catch (error) {
    if (sqlState(error) === INSUFFICIENT_PRIVILEGE) throw missingRights()
    if (sqlState(error) === LOCK_NOT_AVAILABLE) throw new TableBusyError(target)
    if (sqlState(error) !== DUPLICATE_OBJECT) throw error
  }
  return { changed: true }
}

// One statement in its own transaction, waiting at most PUBLISH_LOCK_TIMEOUT_MS for locks.
async function withLockTimeout(client: Queryable, statement: string) {
  try {
    await client.query(
      `BEGIN; SET LOCAL lock_timeout = ${PUBLISH_LOCK_TIMEOUT_MS}; ${statement} COMMIT;`,
    )
  } catch (error) {
    // A failed statement leaves the transaction open and aborted.
    await client.query('ROLLBACK').catch(() => {})
    throw error
  }
}

async function tableState(
  client: Queryable,
  publication: string,
  schema: string,
  table: string,
): Promise<TableState | undefined> {
  const { rows } = await client.query<TableStateRow>(
    `select c.relreplident::text as replident,
            pg_get_userbyid(c.relowner)::text as owner,
            pg_has_role(current_user, c.relowner, 'USAGE')::text as owned,
            current_user::text as role,
            exists (
              select 1 from pg_publication_rel pr
              join pg_publication p on p.oid = pr.prpubid
              where p.pubname = $3 and pr.prrelid = c.oid
            )::text as published
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relname = $2 and c.relkind in ('r', 'p')`,
    [schema, table, publication],
  )
  const row = rows[0]
  if (!row) return undefined
  return {
    ...row,
    owned: row.owned === 'true',
    published: row.published === 'true',
  }
}
