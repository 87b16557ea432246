// A user's provider connections in the control plane: sealed tokens, and the one access token a
// request may use, refreshed before it expires. Refresh tokens are single-use and rotate, so a
// refresh holds the connection's row lock: a concurrent request waits, then finds the new token.
import type { Db } from '../platform/db/database.ts'
import { transaction } from '../platform/db/database.ts'
import { openToken, sealToken } from '../platform/crypto/provider-tokens.ts'
import {
  GrantRevokedError,
  type GrantedTokens,
  type ProviderName,
  type ProviderOAuth,
} from './oauth.ts'

/** Refresh this long before the provider's expiry, so a token never expires mid-request. */
const REFRESH_MARGIN_MS = 60_000

export type ConnectionMethod = 'oauth' | 'token'

export type ConnectionSummary = {
  provider: ProviderName
  method: ConnectionMethod
  created_at: string
}

/** No connection (never made, disconnected, or its grant is gone): our routes answer 401. */
export class NotConnectedError extends Error {}

type Row = {
  method: ConnectionMethod
  access_token: Buffer
  refresh_token: Buffer | null
  expires_at: Date | null
}

export async function saveConnection(
  db: Db,
  key: Buffer,
  userId: string,
  provider: ProviderName,
  method: ConnectionMethod,
  tokens: GrantedTokens,
): Promise<ConnectionSummary> {
  const slot = (kind: 'access' | 'refresh') => ({ userId, provider, kind })
  const { rows } = await db.query<ConnectionSummary>(
    `insert into provider_connections
       (user_id, provider, method, access_token, refresh_token, expires_at)
     values ($1, $2, $3, $4, $5, $6)
     on conflict (user_id, provider) do update set
       method = excluded.method, access_token = excluded.access_token,
       refresh_token = excluded.refresh_token, expires_at = excluded.expires_at,
       created_at = now()
     returning provider, method, to_json(created_at) #>> '{}' as created_at`,
    [
      userId,
      provider,
      method,
      sealToken(key, slot('access'), tokens.accessToken),
      tokens.refreshToken === null
        ? null
        : sealToken(key, slot('refresh'), tokens.refreshToken),
      tokens.expiresAt,
    ],
  )
  return rows[0]!
}

export async function listConnections(
  db: Db,
  userId: string,
): Promise<ConnectionSummary[]> {
  const { rows } = await db.query<ConnectionSummary>(
    `select provider, method, to_json(created_at) #>> '{}' as created_at
       from provider_connections where user_id = $1`,
    [userId],
  )
  return rows
}

/** Deletes the connection; returns its tokens (for revoking at the provider) if there was one. */
export async function deleteConnection(
  db: Db,
  key: Buffer,
  userId: string,
  provider: ProviderName,
): Promise<{
  method: ConnectionMethod
  accessToken: string
  refreshToken: string | null
} | null> {
  const { rows } = await db.query<Row>(
    `delete from provider_connections where user_id = $1 and provider = $2
     returning method, access_token, refresh_token, expires_at`,
    [userId, provider],
  )
  const row = rows[0]
  if (!row) return null
  return { method: row.method, ...openRow(key, userId, provider, row) }
}

function openRow(key: Buffer, userId: string, provider: string, row: Row) {
  return {
    accessToken: openToken(
      key,
      { userId, provider, kind: 'access' },
      row.access_token,
    ),
    refreshToken: row.refresh_token
      ? openToken(key, { userId, provider, kind: 'refresh' }, row.refresh_token)
      : null,
  }
}

const fresh = (row: Row, now: number) =>
  row.expires_at === null || row.expires_at.getTime() - REFRESH_MARGIN_MS > now

/**
 * The access token to call the provider with, refreshed first when it is about to expire.
 * Throws NotConnectedError when there is no connection or the refresh was refused (the
 * connection is then deleted).
 */
export async function accessToken(
  db: Db,
  key: Buffer,
  userId: string,
  provider: ProviderName,
  oauth: ProviderOAuth | null,
): Promise<string> {
  const select = `select method, access_token, refresh_token, expires_at
                    from provider_connections where user_id = $1 and provider = $2`
  const { rows } = await db.query<Row>(select, [userId, provider])
  const row = rows[0]
  if (!row) throw new NotConnectedError()
  if (fresh(row, Date.now()))
    return openRow(key, userId, provider, row).accessToken
  // Near expiry: refresh under the row lock. Whoever waited on the lock re-reads the row and
  // uses the token the first refresh stored, so a rotated refresh token is never sent twice.
  const refreshed = await transaction(db, async (client) => {
    const locked = (
      await client.query<Row>(`${select} for update`, [userId, provider])
    ).rows[0]
    if (!locked) return null
    const tokens = openRow(key, userId, provider, locked)
    if (fresh(locked, Date.now())) return tokens.accessToken
    const used = tokens.refreshToken
    let next: GrantedTokens | null = null
    try {
      // Without a refresh token (or with OAuth no longer configured) an expired grant is gone.
      if (oauth && used) next = await oauth.refresh(used)
    } catch (error) {
      if (!(error instanceof GrantRevokedError)) throw error
    }
    if (!next || !used) {
      await client.query(
        'delete from provider_connections where user_id = $1 and provider = $2',
        [userId, provider],
      )
      return null
    }
    const slot = (kind: 'access' | 'refresh') => ({ userId, provider, kind })
    await client.query(
      `update provider_connections
          set access_token = $3, refresh_token = $4, expires_at = $5
        where user_id = $1 and provider = $2`,
      [
        userId,
        provider,
        sealToken(key, slot('access'), next.accessToken),
        sealToken(key, slot('refresh'), next.refreshToken ?? used),
        next.expiresAt,
      ],
    )
    return next.accessToken
  })
  if (refreshed === null) throw new NotConnectedError()
  return refreshed
}

/** The provider refused the token we hold (401): the grant is gone, so is the connection. */
export async function forgetConnection(
  db: Db,
  userId: string,
  provider: ProviderName,
): Promise<void> {
  await db.query(
    'delete from provider_connections where user_id = $1 and provider = $2',
    [userId, provider],
  )
}
