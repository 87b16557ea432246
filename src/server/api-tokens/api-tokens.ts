// Team API tokens in the control plane: made, listed and revoked by a team's members, resolved
// on each Bearer request, and their use audited. Only a token's sha256 is stored (tokens.ts);
// it is looked up by that hash, so no stored secret is ever compared byte by byte.
import { API_TOKEN_PREFIX, type ApiToken } from '../../shared/api-tokens.ts'
import { hashToken, randomToken } from '../auth/tokens.ts'
import type { Db } from '../platform/db/database.ts'

// Writing last_used_at on every request would turn a script's reads into writes; a minute's
// precision is all the team page shows.
const TOUCH_AFTER_MS = 60 * 1000
/** Audit rows kept per team: its newest; the prune loop deletes older ones. */
const API_TOKEN_USES_KEPT_PER_TEAM = 10_000

const listColumns = `id, name, to_json(created_at) #>> '{}' as created_at,
  to_json(last_used_at) #>> '{}' as last_used_at, to_json(expires_at) #>> '{}' as expires_at`

export type CreatedApiToken = { id: string; name: string; token: string }

/** `full` when the team already has `maxLive` unrevoked tokens. */
export async function createApiToken(
  db: Db,
  input: {
    teamId: string
    name: string
    expiresAt: string | null
    createdBy: string
    maxLive: number
  },
): Promise<
  | { kind: 'created'; token: CreatedApiToken }
  | { kind: 'full' }
  | { kind: 'no_team' }
> {
  const token = `${API_TOKEN_PREFIX}${randomToken()}`
  // The count and the insert in one statement, under the team's row lock, so two creates at
  // once cannot both slip under the cap.
  const { rows } = await db.query<{ id: string | null; locked: boolean }>(
    `with team as (select id from teams where id = $1 for no key update),
     live as (
       select count(*)::int as n from api_tokens
        where team_id = (select id from team) and revoked_at is null
          and (expires_at is null or expires_at > now())
     ),
     made as (
       insert into api_tokens (team_id, name, token_hash, created_by, expires_at)
       select id, $2, $3, $4, $5 from team where (select n from live) < $6
       returning id
     )
     select (select id from made) as id, exists (select 1 from team) as locked`,
    [
      input.teamId,
      input.name,
      hashToken(token),
      input.createdBy,
      input.expiresAt,
      input.maxLive,
    ],
  )
  const row = rows[0]
  if (!row?.locked) return { kind: 'no_team' }
  if (!row.id) return { kind: 'full' }
  return { kind: 'created', token: { id: row.id, name: input.name, token } }
}

/** A team's unrevoked tokens, newest first; expired ones too, so the team sees them lapse. */
export async function listApiTokens(
  db: Db,
  teamId: string,
): Promise<ApiToken[]> {
  const { rows } = await db.query<ApiToken>(
    `select ${listColumns} from api_tokens
      where team_id = $1 and revoked_at is null
      order by created_at desc, id`,
    [teamId],
  )
  return rows
}

/** False when the team has no such unrevoked token. */
export async function revokeApiToken(
  db: Db,
  teamId: string,
  tokenId: string,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `update api_tokens set revoked_at = now()
      where id = $1 and team_id = $2 and revoked_at is null`,
    [tokenId, teamId],
  )
  return rowCount === 1
}

/** What a Bearer request acts as: one team, through one token. */
export type TokenCaller = {
  tokenId: string
  teamId: string
  /** Who made the token, while they exist: the maker of what the token creates. */
  createdBy: string | null
}

/** The caller of a live token; null for an unknown, revoked or expired one. */
export async function resolveApiToken(
  db: Db,
  token: string,
): Promise<TokenCaller | null> {
  if (!token.startsWith(API_TOKEN_PREFIX)) return null
  const { rows } = await db.query<TokenCaller & { stale: boolean }>(
    `select id as "tokenId", team_id as "teamId", created_by as "createdBy",
            coalesce(last_used_at < now() - $2 * interval '1 millisecond', true) as stale
       from api_tokens
      where token_hash = $1 and revoked_at is null
        and (expires_at is null or expires_at > now())`,
    [hashToken(token), TOUCH_AFTER_MS],
  )
  const row = rows[0]
  if (!row) return null
  if (row.stale)
    await db.query('update api_tokens set last_used_at = now() where id = $1', [
      row.tokenId,
    ])
  return { tokenId: row.tokenId, teamId: row.teamId, createdBy: row.createdBy }
}

/** One row of the team's audit of token use. */
export async function recordApiTokenUse(
  db: Db,
  caller: TokenCaller,
  use: { method: string; path: string; status: number },
): Promise<void> {
  await db.query(
    `insert into api_token_uses (token_id, team_id, method, path, status)
     values ($1, $2, $3, $4, $5)`,
    [caller.tokenId, caller.teamId, use.method, use.path, use.status],
  )
}

export type ApiTokenUse = {
  token_id: string
  token_name: string
  used_at: string
  method: string
  path: string
  status: number
}

/** The team's newest audit rows, newest first. */
export async function listApiTokenUses(
  db: Db,
  teamId: string,
  limit: number,
): Promise<ApiTokenUse[]> {
  const { rows } = await db.query<ApiTokenUse>(
    `select u.token_id, t.name as token_name, to_json(u.used_at) #>> '{}' as used_at,
            u.method, u.path, u.status
       from api_token_uses u join api_tokens t on t.id = u.token_id
      where u.team_id = $1
      order by u.id desc
      limit $2`,
    [teamId, limit],
  )
  return rows
}

/** Keeps each team's newest audit rows only (the prune loop, start.ts). */
export async function pruneApiTokenUses(
  db: Db,
  keptPerTeam = API_TOKEN_USES_KEPT_PER_TEAM,
): Promise<void> {
  await db.query(
    `delete from api_token_uses u
      using (
        select team_id, (select id from api_token_uses k where k.team_id = t.team_id
                          order by id desc offset $1 - 1 limit 1) as oldest_kept
          from (select distinct team_id from api_token_uses) t
      ) keep
      where u.team_id = keep.team_id and u.id < keep.oldest_kept`,
    [keptPerTeam],
  )
}
