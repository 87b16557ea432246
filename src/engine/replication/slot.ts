// The per-database logical replication slot: creation, health (WAL retained, lost slots) and
// removal together with the publication. Also the entry point for the other setup helpers.
import { parseLsn } from '../pg/lsn.ts'
import { ReplicationSetupError } from './publication.ts'
import { quoteIdent, sqlState, type Queryable } from '../pg/sql.ts'
import type { Lsn } from './types.ts'

export { replicationNames, type ReplicationNames } from './names.ts'
export { ensurePublication, ReplicationSetupError } from './publication.ts'
export { addTableToPublication } from './publish-table.ts'
export type { Queryable } from '../pg/sql.ts'

const DUPLICATE_OBJECT = '42710'
const UNDEFINED_OBJECT = '42704'
const INSUFFICIENT_PRIVILEGE = '42501'
/** How long to wait for a walsender still holding the slot to exit before dropping it. */
const TERMINATE_WAIT_MS = 5_000

export type SlotHealth = {
  exists: boolean
  /** reserved, extended, unreserved or lost (WAL needed by the slot is gone); null if missing. */
  walStatus: string | null
  /** A session is streaming from the slot right now. */
  active: boolean
  restartLsn: Lsn | null
  confirmedFlushLsn: Lsn | null
  /** WAL the server keeps for this slot: current WAL position minus restart_lsn. */
  retainedBytes: bigint | null
}

/**
 * Creates the slot with pg_create_logical_replication_slot over an ordinary connection rather
 * than CREATE_REPLICATION_SLOT over a replication one: it takes bind parameters, works with
 * the caller's pool, and the snapshot the replication command could export is not needed
 * (shape snapshots take their own and skip transactions they already see).
 * `consistentPoint`: the LSN from which the new slot decodes.
 */
export async function ensureSlot(
  client: Queryable,
  name: string,
): Promise<{ created: boolean; consistentPoint?: Lsn }> {
  const { rows } = await client.query<{
    kind: string
    plugin: string | null
    here: string
  }>(
    `select slot_type::text as kind, plugin::text as plugin,
            (database = current_database())::text as here
       from pg_replication_slots where slot_name = $1`,
    [name],
  )
  const existing = rows[0]
  if (existing) {
    if (
      existing.kind !== 'logical' ||
      existing.plugin !== 'pgoutput' ||
      existing.here !== 'true'
    )
      // duplicate_object: a SQLSTATE, so a caller may show these words to users as they are.
      throw Object.assign(
        new Error(
          `Replication slot "${name}" already exists but is not a pgoutput slot of this database`,
        ),
        { code: '42710' },
      )
    return { created: false }
  }
  try {
    // A new logical slot waits for every transaction running now to end, as a lock wait: on
    // an engine session (lock_timeout) it would give up under any steady write load. Waiting
    // here holds nothing the app's statements need, so it may last.
    await client.query('set lock_timeout = 0')
    const created = await client
      .query<{ lsn: string }>(
        `select lsn::text as lsn from pg_create_logical_replication_slot($1, 'pgoutput')`,
        [name],
      )
      .finally(() => client.query('reset lock_timeout').catch(() => {}))
    const lsn = created.rows[0]?.lsn
    return { created: true, ...(lsn ? { consistentPoint: parseLsn(lsn) } : {}) }
  } catch (error) {
    if (sqlState(error) === DUPLICATE_OBJECT) return { created: false }
    if (sqlState(error) === INSUFFICIENT_PRIVILEGE)
      throw await needsReplication(client)
    throw error
  }
}

export async function slotHealth(
  client: Queryable,
  name: string,
): Promise<SlotHealth> {
  const { rows } = await client.query<{
    wal_status: string | null
    active: string
    restart_lsn: string | null
    confirmed_flush_lsn: string | null
    retained: string | null
  }>(
    // On a standby the current position is the last WAL received.
    `select wal_status::text, active::text, restart_lsn::text, confirmed_flush_lsn::text,
            pg_wal_lsn_diff(
              case when pg_is_in_recovery() then pg_last_wal_receive_lsn()
                   else pg_current_wal_lsn() end,
              restart_lsn
            )::text as retained
       from pg_replication_slots where slot_name = $1`,
    [name],
  )
  const row = rows[0]
  if (!row)
    return {
      exists: false,
      walStatus: null,
      active: false,
      restartLsn: null,
      confirmedFlushLsn: null,
      retainedBytes: null,
    }
  return {
    exists: true,
    walStatus: row.wal_status,
    active: row.active === 'true',
    restartLsn: row.restart_lsn ? parseLsn(row.restart_lsn) : null,
    confirmedFlushLsn: row.confirmed_flush_lsn
      ? parseLsn(row.confirmed_flush_lsn)
      : null,
    // pg_wal_lsn_diff is numeric: whole bytes, printed without a fraction.
    retainedBytes: row.retained
      ? BigInt(row.retained.split('.')[0] ?? '0')
      : null,
  }
}

/**
 * Drops the slot (ending a session still holding it: the engine owns this slot) and the
 * publication. Missing ones are fine, so it also cleans up half-created pairs.
 */
export async function dropSlotAndPublication(
  client: Queryable,
  slot: string,
  publication: string,
): Promise<void> {
  await dropSlot(client, slot)
  await client.query(`DROP PUBLICATION IF EXISTS ${quoteIdent(publication)}`)
}

/** Drops the slot, ending a session still holding it; a missing one is fine. */
export async function dropSlot(client: Queryable, slot: string): Promise<void> {
  const { rows } = await client.query<{ pid: string | null }>(
    'select active_pid::text as pid from pg_replication_slots where slot_name = $1',
    [slot],
  )
  const row = rows[0]
  if (row) {
    if (row.pid)
      await client.query('select pg_terminate_backend($1::int, $2::bigint)', [
        row.pid,
        TERMINATE_WAIT_MS,
      ])
    try {
      await client.query('select pg_drop_replication_slot($1)', [slot])
    } catch (error) {
      if (sqlState(error) !== UNDEFINED_OBJECT) throw error
    }
  }
}

async function needsReplication(
  client: Queryable,
): Promise<ReplicationSetupError> {
  const { rows } = await client.query<{ role: string }>(
    'select current_user::text as role',
  )
  const sql = `ALTER ROLE ${quoteIdent(rows[0]?.role ?? '')} WITH REPLICATION;`
  return new ReplicationSetupError(
    `Role ${quoteIdent(rows[0]?.role ?? '')} may not create replication slots. ` +
      `Run as a superuser: ${sql}`,
    sql,
  )
}
