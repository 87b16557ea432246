// Writes a new source, or finds the one a team already has for that database in that region.
// Creates for one team queue on a lock of its team row, so the existing-database check and the
// team's count of sources hold until the new row commits: two requests racing for the same
// database end with one row, and no race takes a team past its maximum. A source with no team
// (a claimable source, waiting to be claimed) skips all three: it belongs to nobody yet.
// Callers that must write more in the same transaction (a setup form marked used, a claim row)
// pass `onWrite`; if it throws, nothing is written.
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import {
  SOURCE_EVENTS,
  type ApiSourceStatus,
  type Region,
} from '../../../shared/sources.ts'
import { transactionWithTxid, type Db } from '../../platform/db/database.ts'
import { logSourceEvent } from '../sources.ts'
import { lockTeamForCreate } from '../../teams/teams.ts'
import { newSourceSecret } from '../../platform/crypto/source-secret.ts'
import { sealPassword } from '../../platform/crypto/source-passwords.ts'
import type { SourceAddress } from './database-url.ts'

export type NewSource = {
  /** Null for a claimable source, which belongs to no team until it is claimed. */
  teamId: string | null
  /** Null: no name; the dashboard shows the id. */
  name: string | null
  /** Null or absent: none. Only API creates set them; setup links and claims leave them out. */
  project?: string | null
  environment?: string | null
  region: Region
  address: SourceAddress
  /** Written into the source_created event. */
  instanceId: string
  /** Sources the team may have that are not deleted (env MAX_SOURCES_PER_TEAM). */
  maxPerTeam: number
}

type Existing = { id: string; source_secret: string; state: string }

export type CreateOutcome =
  | { kind: 'created'; id: string; source_secret: string; txid: number }
  | {
      kind: 'existing'
      id: string
      source_secret: string
      status: ApiSourceStatus
    }
  | { kind: 'team_full' }
  | { kind: 'no_team' }

/** The API's three words for the states a live source can be in. */
function apiStatus(state: string): ApiSourceStatus {
  if (state === 'active' || state === 'error') return state
  return 'pending'
}

type Written =
  | Existing
  | { inserted: string; source_secret: string }
  | 'team_full'
  | 'no_team'

/** What a team's side of adding a source (a create or a claim) looks at. */
export type TeamSlot = {
  teamId: string
  region: string
  databaseKey: string
  maxPerTeam: number
}

/**
 * The team's side of adding a source: null when the new row may be written (or moved in), else
 * the team's existing source for that database, or why not.
 */
export async function checkTeam(
  client: pg.PoolClient,
  slot: TeamSlot,
): Promise<Existing | 'team_full' | 'no_team' | null> {
  if (!(await lockTeamForCreate(client, slot.teamId))) return 'no_team'
  // Before the count: a database the team already has is answered even when the team is full.
  const { rows } = await client.query<Existing>(
    `select id, source_secret, state from sources
      where team_id = $1 and region = $2 and database_key = $3 and deleted_at is null`,
    [slot.teamId, slot.region, slot.databaseKey],
  )
  if (rows[0]) return rows[0]
  const count = await client.query<{ n: number }>(
    'select count(*)::int as n from sources where team_id = $1 and deleted_at is null',
    [slot.teamId],
  )
  if ((count.rows[0]?.n ?? 0) >= slot.maxPerTeam) return 'team_full'
  return null
}

async function insertOrFind(
  client: pg.PoolClient,
  key: Buffer,
  source: NewSource,
): Promise<Written> {
  const { target, connectionUrl, databaseKey } = source.address
  const inTeam =
    source.teamId === null
      ? null
      : await checkTeam(client, {
          teamId: source.teamId,
          region: source.region,
          databaseKey,
          maxPerTeam: source.maxPerTeam,
        })
  if (inTeam) return inTeam

  // Generated here, not by Postgres: the id is the sealed password's associated data.
  const id = randomUUID()
  const secret = newSourceSecret()
  const sealed = target.password ? sealPassword(key, id, target.password) : null
  await client.query(
    `insert into sources (id, team_id, region, state, connection_url, encrypted_password,
                          source_secret, database_key, name, project, environment)
     values ($1, $2, $3, 'initializing', $4, $5, $6, $7, $8, $9, $10)`,
    [
      id,
      source.teamId,
      source.region,
      connectionUrl,
      sealed,
      secret,
      databaseKey,
      source.name,
      source.project ?? null,
      source.environment ?? null,
    ],
  )
  await logSourceEvent(
    client,
    id,
    SOURCE_EVENTS.created,
    { region: source.region, database: databaseKey },
    source.instanceId,
  )
  return { inserted: id, source_secret: secret }
}

/**
 * Runs in the create's transaction once the row is written or found (not for `team_full` and
 * `no_team`); throwing rolls the create back and the error reaches the caller.
 */
export type OnWrite = (
  client: pg.PoolClient,
  written: { id: string; created: boolean },
) => Promise<void>

export async function createSource(
  db: Db,
  key: Buffer,
  source: NewSource,
  onWrite?: OnWrite,
): Promise<CreateOutcome> {
  const { result, txid } = await transactionWithTxid(db, async (client) => {
    const written = await insertOrFind(client, key, source)
    if (onWrite && typeof written === 'object')
      await onWrite(
        client,
        'inserted' in written
          ? { id: written.inserted, created: true }
          : { id: written.id, created: false },
      )
    return written
  })
  if (result === 'team_full' || result === 'no_team') return { kind: result }
  if ('inserted' in result)
    return {
      kind: 'created',
      id: result.inserted,
      source_secret: result.source_secret,
      txid,
    }
  return {
    kind: 'existing',
    id: result.id,
    source_secret: result.source_secret,
    status: apiStatus(result.state),
  }
}
