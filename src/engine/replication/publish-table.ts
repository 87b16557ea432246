// Bringing a table into the publication with REPLICA IDENTITY FULL (so updates and deletes
// carry whole old rows): a partitioned table with every partition (identity is set per
// partition, and partitions made later start without it), never a table whose own writes that
// would break, and with an actionable error when rights are missing.
import {
  GENERATED_COLUMNS_VERSION,
  LOCK_WAIT_MS,
  ManualPublishingError,
  ReplicationSetupError,
  TableBusyError,
  UnreplicableTableError,
} from './publication.ts'
import {
  qualifiedName,
  quoteIdent,
  sqlState,
  type Queryable,
} from '../pg/sql.ts'

const DUPLICATE_OBJECT = '42710'
const INSUFFICIENT_PRIVILEGE = '42501'
const LOCK_NOT_AVAILABLE = '55P03'

type TableState = {
  owner: string
  /** The role may act as the owner of the table and of each of its partitions. */
  owned: boolean
  published: boolean
  role: string
  version: number
  /** The table and its partitions whose replica identity is not FULL yet. */
  notFull: Array<{ schema: string; name: string }>
  virtualGenerated: string[]
}

/**
 * Sets REPLICA IDENTITY FULL on the table (and on each of its partitions) and adds it to the
 * publication; a no-op when all are so already. Both need ownership: without it, throws
 * ReplicationSetupError naming the table and the SQL to run. `manual`: only checks, and
 * throws ManualPublishingError with the SQL when something is left to do.
 */
export async function addTableToPublication(
  client: Queryable,
  publication: string,
  schema: string,
  table: string,
  manual = false,
): Promise<{ changed: boolean; ran: string[] }> {
  const target = qualifiedName(schema, table)
  const state = await tableState(client, publication, schema, table)
  if (!state) throw new Error(`Table ${target} does not exist`)
  if (
    state.virtualGenerated.length > 0 &&
    state.version >= GENERATED_COLUMNS_VERSION
  )
    throw new UnreplicableTableError(
      `Table ${target} has virtual generated columns (${state.virtualGenerated.join(', ')}), ` +
        `which Postgres cannot replicate. Postgres refuses UPDATE and DELETE on a table whose ` +
        `replica identity holds a column it cannot publish, so replicating this table would ` +
        `break the application's own writes: Sluice left it as it is. Make the columns ` +
        `STORED to sync this table.`,
    )
  if (state.notFull.length === 0 && state.published)
    return { changed: false, ran: [] }
  const identities = state.notFull.map(
    (t) =>
      `ALTER TABLE ${qualifiedName(t.schema, t.name)} REPLICA IDENTITY FULL;`,
  )
  const publish = `ALTER PUBLICATION ${quoteIdent(publication)} ADD TABLE ${target};`
  const statements = [...identities, ...(state.published ? [] : [publish])]
  if (manual) throw manualError(schema, table, publication, state, statements)
  const missingRights = (ran: string[] = []) =>
    new ReplicationSetupError(
      `Sluice cannot replicate table ${target}: role ${quoteIdent(state.role)} does not own ` +
        `it (owner: ${quoteIdent(state.owner)}). Run as a superuser: ${statements.join(' ')} ` +
        `Or let ${quoteIdent(state.role)} act as the owner: ` +
        `GRANT ${quoteIdent(state.owner)} TO ${quoteIdent(state.role)};`,
      statements.join('\n'),
      { schema, name: table },
      ran,
    )
  if (!state.owned) throw missingRights()
  // What ran, to be named to the user (the source's event log), even when a later step fails.
  const ran: string[] = []
  try {
    // Identity first: once published, every change must carry the whole old row. One
    // statement (one lock) at a time: never two of the user's tables held at once.
    for (const statement of statements) {
      await withLockTimeout(client, statement)
      ran.push(statement)
    }
  } catch (error) {
    if (sqlState(error) === INSUFFICIENT_PRIVILEGE) throw missingRights(ran)
    if (sqlState(error) === LOCK_NOT_AVAILABLE)
      throw new TableBusyError(target, ran)
    if (sqlState(error) !== DUPLICATE_OBJECT) throw error
  }
  return { changed: true, ran }
}

// Electric's words for the same two cases, the table named as Electric names it.
function manualError(
  schema: string,
  table: string,
  publication: string,
  state: TableState,
  statements: string[],
): ManualPublishingError {
  const named = `"${schema}.${table}"`
  return new ManualPublishingError(
    state.published
      ? `Database table ${named} does not have its replica identity set to FULL`
      : `Database table ${named} is missing from the publication ${quoteIdent(publication)} ` +
          'and the ELECTRIC_MANUAL_TABLE_PUBLISHING setting prevents the engine from adding it',
    statements.join(' '),
  )
}

// One statement in its own transaction, waiting at most LOCK_WAIT_MS for locks.
async function withLockTimeout(client: Queryable, statement: string) {
  try {
    await client.query(
      `BEGIN; SET LOCAL lock_timeout = ${LOCK_WAIT_MS}; ${statement} COMMIT;`,
    )
  } catch (error) {
    // A failed statement leaves the transaction open and aborted.
    await client.query('ROLLBACK').catch(() => {})
    throw error
  }
}

// Every value as text: callers may hand us clients with custom type parsers. `tree`: the table
// and, when partitioned, every partition below it.
const TABLE_STATE_SQL = `
  with t as (
    select c.oid, c.relowner from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = $1 and c.relname = $2 and c.relkind in ('r', 'p')
  ), tree as (
    select p.oid, p.relname, pn.nspname, p.relreplident, p.relowner
      from t, pg_class p
      join pg_namespace pn on pn.oid = p.relnamespace
     where p.oid = t.oid or p.oid in (select relid from pg_partition_tree(t.oid))
  )
  select pg_get_userbyid(t.relowner)::text as owner,
         (select bool_and(pg_has_role(current_user, relowner, 'USAGE')) from tree)::text
           as owned,
         current_user::text as role,
         current_setting('server_version_num') as version,
         exists (
           select 1 from pg_publication_rel pr
           join pg_publication p on p.oid = pr.prpubid
           where p.pubname = $3 and pr.prrelid = t.oid
         )::text as published,
         (select coalesce(json_agg(json_build_object('schema', nspname, 'name', relname)),
                 '[]')
            from tree where relreplident <> 'f')::text as not_full,
         (select coalesce(json_agg(a.attname order by a.attnum), '[]') from pg_attribute a
           where a.attrelid = t.oid and a.attnum > 0 and not a.attisdropped
             and a.attgenerated = 'v')::text as virtual_generated
    from t`

async function tableState(
  client: Queryable,
  publication: string,
  schema: string,
  table: string,
): Promise<TableState | undefined> {
  const { rows } = await client.query<Record<string, string>>(TABLE_STATE_SQL, [
    schema,
    table,
    publication,
  ])
  const row = rows[0]
  if (!row) return undefined
  return {
    owner: row.owner ?? '',
    role: row.role ?? '',
    owned: row.owned === 'true',
    published: row.published === 'true',
    version: Number(row.version),
    notFull: JSON.parse(row.not_full ?? '[]') as TableState['notFull'],
    virtualGenerated: JSON.parse(row.virtual_generated ?? '[]') as string[],
  }
}
