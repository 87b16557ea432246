// /api/v1/provider-connections: which provider accounts the signed-in user has connected, a
// personal token to connect with, and disconnecting (revoked at the provider where it allows).
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../platform/http/context.ts'
import { readJson } from '../platform/http/json.ts'
import {
  deleteConnection,
  listConnections,
  NotConnectedError,
  saveConnection,
} from './connections.ts'
import { LABEL, oauthFor } from './context.ts'
import { NEON_CHECK_PATH } from './neon.ts'
import { PROVIDER_NAMES, type ProviderName } from './oauth.ts'
import { SUPABASE_CHECK_PATH } from './supabase.ts'
import { callWithToken, UpstreamError } from './upstream.ts'

/** Real tokens are well under this (Supabase's sbp_ tokens ~44, Neon's keys ~64). */
const TOKEN_MAX_LENGTH = 1024

const tokenBody = z.object({
  token: z.string().trim().min(1, 'is required').max(TOKEN_MAX_LENGTH),
})

const isProvider = (name: string): name is ProviderName =>
  (PROVIDER_NAMES as readonly string[]).includes(name)

export const providerConnectionRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const { env, db } = c.var.deps
    const connected = await listConnections(db, c.var.user.id)
    return c.json({
      providers: PROVIDER_NAMES.map((provider) => {
        const found = connected.find((x) => x.provider === provider)
        return {
          provider,
          oauth:
            provider === 'supabase'
              ? env.supabaseOAuthEnabled
              : env.neonOAuthEnabled,
          connection: found
            ? { method: found.method, created_at: found.created_at }
            : null,
        }
      }),
      // The wizard builds a Supabase project's direct connection string from this.
      supabase_db_host_template: env.SUPABASE_DB_HOST_TEMPLATE,
    })
  })
  .put('/:provider', async (c) => {
    const provider = c.req.param('provider')
    if (!isProvider(provider))
      return c.json({ message: 'Unknown provider' }, 404)
    const body = await readJson(c, tokenBody)
    if (!body.success) return body.response
    const { env, db, keys } = c.var.deps
    const providerTokenKey = keys['provider-tokens']
    const [base, path] =
      provider === 'supabase'
        ? [env.SUPABASE_API_URL, SUPABASE_CHECK_PATH]
        : [env.NEON_API_URL, NEON_CHECK_PATH]
    try {
      // One cheap list: a token the provider refuses is never stored.
      await callWithToken(
        provider,
        `${base.replace(/\/$/, '')}${path}`,
        body.data.token,
        z.unknown(),
      )
    } catch (error) {
      const refused =
        error instanceof NotConnectedError ||
        (error instanceof UpstreamError && error.status === 403)
      if (refused)
        return c.json(
          { message: `${LABEL[provider]} refused this token.` },
          400,
        )
      if (error instanceof UpstreamError)
        return c.json({ message: error.message }, 502)
      throw error
    }
    const saved = await saveConnection(
      db,
      providerTokenKey,
      c.var.user.id,
      provider,
      'token',
      {
        accessToken: body.data.token,
        refreshToken: null,
        expiresAt: null,
      },
    )
    return c.json(saved)
  })
  .delete('/:provider', async (c) => {
    const provider = c.req.param('provider')
    if (!isProvider(provider))
      return c.json({ message: 'Unknown provider' }, 404)
    const { db, log, keys } = c.var.deps
    const providerTokenKey = keys['provider-tokens']
    const tokens = await deleteConnection(
      db,
      providerTokenKey,
      c.var.user.id,
      provider,
    )
    // Only an OAuth grant can be revoked through the API; a personal token is the user's to
    // delete in the provider's console. Deleted here either way, even if revoking fails.
    const oauth = oauthFor(c, provider)
    if (tokens?.method === 'oauth' && oauth)
      await oauth
        .revoke(tokens)
        .catch((error: Error) =>
          log.warn(`revoking a ${provider} grant failed: ${error.name}`),
        )
    return c.body(null, 204)
  })
