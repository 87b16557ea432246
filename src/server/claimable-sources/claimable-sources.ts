// The claimable_sources table (migrations 0009, 0014): the claim row written beside a team-less
// source, what a claim id shows, the caps on unclaimed sources (global, per client address, per
// database), and the expiry sweep.
import type pg from 'pg'
import { SOURCE_EVENTS } from '../../shared/sources.ts'
import { transaction, type Db } from '../platform/db/database.ts'
import { logSourceEvent } from '../sources/sources.ts'

type Queryable = Pick<Db, 'query'>

// Any constant works: it queues the creates of claimable sources, so the cap's count holds.
const CAP_LOCK_KEY = 7_451_090

/** The caps a create must fit: the global one, and (for the public API) the shares of it. */
export type UnclaimedCaps = {
  max: number
  /** The client address the create came from, and how many it may have waiting. */
  perIp?: { ip: string; max: number }
  /** How many may wait on one database (sources.database_key). */
  perDatabase?: number
}

export type UnclaimedShare = {
  kind: 'ip' | 'database'
  /** When the first of the sources that fill the share expires. */
  retryAfterSeconds: number
}

/**
 * Thrown inside the create's transaction when a cap is reached; rolls the create back. `share`:
 * which share of the cap was full, or null for the global cap itself.
 */
export class UnclaimedCapError extends Error {
  constructor(readonly share: UnclaimedShare | null) {
    super(`unclaimed sources: the ${share?.kind ?? 'global'} cap is reached`)
  }
}

type Counts = {
  total: number
  from_ip: number
  on_database: number
  ip_frees_in: number | null
  database_frees_in: number | null
}

// The unclaimed sources waiting, and those of this address and this database.
async function countUnclaimed(
  db: Queryable,
  ip: string | null,
  databaseKey: string | null,
): Promise<Counts> {
  const { rows } = await db.query<Counts>(
    `select count(*)::int as total,
            count(*) filter (where c.created_by_ip = $1)::int as from_ip,
            count(*) filter (where s.database_key = $2)::int as on_database,
            ceil(extract(epoch from min(c.expires_at) filter (where c.created_by_ip = $1)
                 - now()))::int as ip_frees_in,
            ceil(extract(epoch from min(c.expires_at) filter (where s.database_key = $2)
                 - now()))::int as database_frees_in
       from claimable_sources c join sources s on s.id = c.source_id
      where c.claimed_at is null and c.expires_at > now()`,
    [ip, databaseKey],
  )
  return rows[0]!
}

/**
 * The cap a create would not fit, or null. `databaseKey` null: the database's share is not
 * looked at (before the readiness check, the URL's password is unproven, and a share answered
 * then would tell anyone holding a host and name that sources wait there).
 */
export async function fullUnclaimedCap(
  db: Queryable,
  caps: UnclaimedCaps,
  databaseKey: string | null,
): Promise<UnclaimedCapError | null> {
  const counts = await countUnclaimed(db, caps.perIp?.ip ?? null, databaseKey)
  if (counts.total >= caps.max) return new UnclaimedCapError(null)
  // At least 1: a retry-after of 0 invites an immediate, equally refused retry.
  if (caps.perIp && counts.from_ip >= caps.perIp.max)
    return new UnclaimedCapError({
      kind: 'ip',
      retryAfterSeconds: Math.max(1, counts.ip_frees_in ?? 1),
    })
  if (
    databaseKey !== null &&
    caps.perDatabase !== undefined &&
    counts.on_database >= caps.perDatabase
  )
    return new UnclaimedCapError({
      kind: 'database',
      retryAfterSeconds: Math.max(1, counts.database_frees_in ?? 1),
    })
  return null
}

/**
 * Writes the claim row for a source just created (in its transaction), unless a cap is reached:
 * then throws UnclaimedCapError, and nothing of the create is kept.
 */
export async function insertClaim(
  client: pg.PoolClient,
  claim: {
    id: string
    sourceId: string
    claimLink: string | null
    databaseKey: string
  },
  caps: UnclaimedCaps,
): Promise<void> {
  await client.query('select pg_advisory_xact_lock($1)', [CAP_LOCK_KEY])
  const full = await fullUnclaimedCap(client, caps, claim.databaseKey)
  if (full) throw full
  await client.query(
    `insert into claimable_sources (id, source_id, claim_link, created_by_ip)
     values ($1, $2, $3, $4)`,
    [claim.id, claim.sourceId, claim.claimLink, caps.perIp?.ip ?? null],
  )
}

export type ClaimRow = {
  source_id: string
  source_secret: string
  state: string
  state_reason: string | null
  claim_link: string | null
  claimed: boolean
  /** Expired, or its source deleted: not claimable, whatever else holds. */
  gone: boolean
}

/** What a claim id names; null when no claim has that id (or its source row is gone). */
export async function readClaim(
  db: Queryable,
  claimId: string,
): Promise<ClaimRow | null> {
  const { rows } = await db.query<ClaimRow>(
    `select s.id as source_id, s.source_secret, s.state, s.state_reason, c.claim_link,
            c.claimed_at is not null as claimed,
            (c.claimed_at is null and c.expires_at <= now()) or s.deleted_at is not null as gone
       from claimable_sources c join sources s on s.id = c.source_id
      where c.id = $1`,
    [claimId],
  )
  return rows[0] ?? null
}

/**
 * Marks every expired, unclaimed source deleted (with its event), so the runtime's removal
 * drops its slot and publication, its shape logs and its row (the claim row goes with it).
 * Answers how many were marked. The claim rows are locked first, as a claim locks them
 * (sources/claim-source.ts): a claim made at the last moment either commits before (and the
 * row, no longer unclaimed, is skipped) or finds the source deleted. Safe on many servers at
 * once: each row is marked once.
 */
export async function expireClaims(
  db: Db,
  instanceId: string,
): Promise<number> {
  return transaction(db, async (client) => {
    const { rows } = await client.query<{ id: string; expires_at: string }>(
      `select s.id, to_json(c.expires_at) #>> '{}' as expires_at
         from claimable_sources c join sources s on s.id = c.source_id
        where c.claimed_at is null and c.expires_at <= now() and s.deleted_at is null
        for update of c`,
    )
    if (rows.length === 0) return 0
    await client.query(
      `update sources set deleted_at = now() where id = any($1) and deleted_at is null`,
      [rows.map((row) => row.id)],
    )
    for (const row of rows)
      await logSourceEvent(
        client,
        row.id,
        SOURCE_EVENTS.claimExpired,
        { expired_at: row.expires_at },
        instanceId,
      )
    return rows.length
  })
}

export type ClaimableListing = {
  claim_id: string
  source_id: string
  state: string
  region: string
  database: string | null
  claim_link: string | null
  created_at: string
  expires_at: string
  claimed_at: string | null
  team_id: string | null
}

/** Every claim whose source still exists, newest first (the admin tool's list). */
export async function listClaims(db: Queryable): Promise<ClaimableListing[]> {
  const { rows } = await db.query<ClaimableListing>(
    `select c.id as claim_id, s.id as source_id,
            case when s.deleted_at is not null then 'removing' else s.state end as state,
            s.region, s.database_key as database, c.claim_link,
            to_json(c.created_at) #>> '{}' as created_at,
            to_json(c.expires_at) #>> '{}' as expires_at,
            to_json(c.claimed_at) #>> '{}' as claimed_at, c.team_id
       from claimable_sources c join sources s on s.id = c.source_id
      order by c.created_at desc`,
  )
  return rows
}
