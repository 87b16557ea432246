// Writes a new source, or finds the one a team already has for that database in that region.
// The partial unique index (team, region, database_key) decides, so two requests racing for
// the same database end with one row, and both answer with it.
import { randomBytes, randomUUID } from 'node:crypto'
import type pg from 'pg'
import {
  SOURCE_EVENTS,
  type ApiSourceStatus,
  type Region,
} from '../../shared/sources.ts'
import { transactionWithTxid, type Db } from '../control/database.ts'
import { logSourceEvent } from '../control/sources.ts'
import { sealPassword } from '../crypto/source-passwords.ts'
import type { SourceAddress } from './database-url.ts'

export type NewSource = {
  teamId: string
  region: Region
  address: SourceAddress
  /** Written into the source_created event. */
  instanceId: string
}

type Existing = { id: string; source_secret: string; state: string }

export type CreateOutcome =
  | { created: true; id: string; source_secret: string; txid: number }
  | {
      created: false
      id: string
      source_secret: string
      status: ApiSourceStatus
    }

/** The API's three words for the states a live source can be in. */
export function apiStatus(state: string): ApiSourceStatus {
  if (state === 'active' || state === 'error') return state
  return 'pending'
}

// A conflicting row that is deleted before we read it frees the key: try again, a few times.
const ATTEMPTS = 3

async function insertOrFind(
  client: pg.PoolClient,
  key: Buffer,
  source: NewSource,
): Promise<Existing | { inserted: string; source_secret: string } | null> {
  const { target, connectionUrl, databaseKey } = source.address
  // Generated here, not by Postgres: the id is the sealed password's associated data.
  const id = randomUUID()
  const secret = randomBytes(32).toString('base64url')
  const sealed = target.password ? sealPassword(key, id, target.password) : null
  const inserted = await client.query(
    `insert into sources (id, team_id, region, state, connection_url, encrypted_password,
                          source_secret, database_key)
     values ($1, $2, $3, 'initializing', $4, $5, $6, $7)
     on conflict (team_id, region, database_key)
       where deleted_at is null and database_key is not null
       do nothing`,
    [
      id,
      source.teamId,
      source.region,
      connectionUrl,
      sealed,
      secret,
      databaseKey,
    ],
  )
  if (inserted.rowCount === 1) {
    await logSourceEvent(
      client,
      id,
      SOURCE_EVENTS.created,
      { region: source.region, database: databaseKey },
      source.instanceId,
    )
    return { inserted: id, source_secret: secret }
  }
  // Read committed: this statement sees the row that won, committed while we waited on it.
  const { rows } = await client.query<Existing>(
    `select id, source_secret, state from sources
      where team_id = $1 and region = $2 and database_key = $3 and deleted_at is null`,
    [source.teamId, source.region, databaseKey],
  )
  return rows[0] ?? null
}

export async function createSource(
  db: Db,
  key: Buffer,
  source: NewSource,
): Promise<CreateOutcome> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    const { result, txid } = await transactionWithTxid(db, (client) =>
      insertOrFind(client, key, source),
    )
    if (result === null) continue
    if ('inserted' in result)
      return {
        created: true,
        id: result.inserted,
        source_secret: result.source_secret,
        txid,
      }
    return {
      created: false,
      id: result.id,
      source_secret: result.source_secret,
      status: apiStatus(result.state),
    }
  }
  throw new Error('The source could not be written: its key kept changing')
}
