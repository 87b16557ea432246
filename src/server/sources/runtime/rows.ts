// The runtime's reads and writes of the sources table: what to run, state changes with their
// event (one transaction), health readings, and removing a row once its slot is gone.
import type { Transition } from './lifecycle.ts'
import type { HealthRecord, StoredHealth } from './health.ts'
import { SOURCE_EVENTS } from '../../../shared/sources.ts'
import { transaction, type Db } from '../../platform/db/database.ts'
import { logSourceEvent } from '../sources.ts'
import { heldElsewhere } from '../../cluster/source-holders.ts'

export type RunnableSource = {
  id: string
  region: string
  state: string
  state_reason: string | null
  connection_url: string
  encrypted_password: Buffer | null
  deleted: boolean
  health: HealthRecord
}

// The health reading arrives as text columns and becomes `health`.
type Row = Omit<RunnableSource, 'health'> & {
  wal_status: string | null
  wal_retained_bytes: string | null
  wal_lag_bytes: string | null
  wal_forecast_seconds: string | null
  checked_at: string | null
}

const toNumber = (text: string | null) => (text === null ? null : Number(text))

/** Every source row, deleted ones included (their slots still need removing). */
export async function listSources(db: Db): Promise<RunnableSource[]> {
  const { rows } = await db.query<Row>(
    `select id, region, state, state_reason, connection_url, encrypted_password,
            deleted_at is not null as deleted, wal_status,
            wal_retained_bytes::text, wal_lag_bytes::text, wal_forecast_seconds::text,
            (extract(epoch from health_checked_at) * 1000)::bigint::text as checked_at
       from sources order by created_at`,
  )
  return rows.map((row) => ({
    id: row.id,
    region: row.region,
    state: row.state,
    state_reason: row.state_reason,
    connection_url: row.connection_url,
    encrypted_password: row.encrypted_password,
    deleted: row.deleted,
    health: {
      walStatus: row.wal_status,
      retainedBytes: toNumber(row.wal_retained_bytes),
      lagBytes: toNumber(row.wal_lag_bytes),
      forecastSeconds: toNumber(row.wal_forecast_seconds),
      checkedAt: toNumber(row.checked_at),
    },
  }))
}

/**
 * Writes a transition: state, reason and its event together. Nothing is written for a row
 * that is gone (force-deleted meanwhile). Answers whether it was written.
 */
export async function writeTransition(
  db: Db,
  sourceId: string,
  change: Transition,
  instanceId: string,
): Promise<boolean> {
  return transaction(db, async (client) => {
    const { rows } = await client.query(
      'select 1 from sources where id = $1 for update',
      [sourceId],
    )
    if (rows.length === 0) return false
    // Fenced: a server another has taken the source from (a hung holder woken after its claims
    // session was ended) must not write over its new holder's state.
    if (await heldElsewhere(client, sourceId, instanceId)) return false
    // Unchanged columns are not rewritten: an event without a state change (a slot made)
    // must not touch the row the dashboard syncs.
    await client.query(
      `update sources set state = $2, state_reason = $3
        where id = $1 and (state, state_reason) is distinct from ($2, $3)`,
      [sourceId, change.state, change.reason],
    )
    await logSourceEvent(
      client,
      sourceId,
      change.event.name,
      change.event.details,
      instanceId,
    )
    return true
  })
}

/** Stores a health reading, and its warning event in the same transaction. */
export async function writeHealth(
  db: Db,
  sourceId: string,
  reading: StoredHealth,
  warning: Record<string, unknown> | null,
  instanceId: string,
): Promise<void> {
  await transaction(db, async (client) => {
    // Fenced like a transition: a server the source was taken from writes no reading.
    if (await heldElsewhere(client, sourceId, instanceId)) return
    const { rowCount } = await client.query(
      `update sources set wal_status = $2, wal_retained_bytes = $3, wal_lag_bytes = $4,
              wal_forecast_seconds = $5, health_checked_at = now()
        where id = $1 and deleted_at is null`,
      [
        sourceId,
        reading.walStatus,
        reading.retainedBytes,
        reading.lagBytes,
        reading.forecastSeconds,
      ],
    )
    if (rowCount && warning)
      await logSourceEvent(
        client,
        sourceId,
        SOURCE_EVENTS.healthWarning,
        warning,
        instanceId,
      )
  })
}

/** Removes a deleted source whose slot is gone; its event logs go with it (cascade). */
export async function deleteSourceRow(db: Db, sourceId: string): Promise<void> {
  await db.query(
    'delete from sources where id = $1 and deleted_at is not null',
    [sourceId],
  )
}
