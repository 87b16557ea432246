// What the provider routes share: the signed-in user's API client for a provider, the OAuth
// client when configured, and the one mapping of failures to answers (401 not connected,
// 404 the provider knows no such thing, 502 the provider failed, 504 it took too long).
import type { Context } from 'hono'
import { z } from 'zod'
import { ownOrigin, type AppEnv } from '../platform/http/context.ts'
import { NotConnectedError } from './connections.ts'
import { OperationTimeoutError } from './neon.ts'
import { providerOAuth, type ProviderName } from './oauth.ts'
import { providerApi, UpstreamError } from './upstream.ts'

export const LABEL: Record<ProviderName, string> = {
  supabase: 'Supabase',
  neon: 'Neon',
}

/** Provider ids in paths (org slugs, project refs, Neon project and branch ids). */
export const providerId = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,100}$/, 'is not a valid id')

/** Postgres names (databases, roles): at most 63 bytes, no control characters. */
export const postgresName = z
  .string()
  .min(1)
  .max(63)
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f]+$/, 'is not a valid name')

export function oauthFor(c: Context<AppEnv>, provider: ProviderName) {
  const origin = ownOrigin(c.var.deps.env, c.req.url)
  return providerOAuth(
    c.var.deps.env,
    provider,
    `${origin}/api/public/auth/${provider}/callback`,
  )
}

export function apiFor(c: Context<AppEnv>, provider: ProviderName) {
  const { env } = c.var.deps
  const base = provider === 'supabase' ? env.SUPABASE_API_URL : env.NEON_API_URL
  return providerApi(
    c.var.deps,
    c.var.user.id,
    provider,
    base,
    oauthFor(c, provider),
  )
}

/**
 * Runs a provider call and answers its result as JSON, or the failure as the wizard reads it:
 * 401 when the account is not connected (the page then offers to connect), otherwise a status
 * and a message (the page shows its own text for the list).
 */
export async function answer(
  c: Context<AppEnv>,
  provider: ProviderName,
  run: () => Promise<unknown>,
): Promise<Response> {
  try {
    return c.json(await run())
  } catch (error) {
    if (error instanceof NotConnectedError)
      return c.json({ message: `Not connected to ${LABEL[provider]}` }, 401)
    if (error instanceof OperationTimeoutError)
      return c.json({ message: error.message }, 504)
    // The provider does not know that organization, project or branch (for this token).
    if (error instanceof UpstreamError && error.status === 404)
      return c.json({ message: `Not found at ${LABEL[provider]}.` }, 404)
    if (error instanceof UpstreamError)
      return c.json({ message: error.message }, 502)
    throw error
  }
}

/** Each path parameter through its schema; a 400 naming the first bad one. */
export function readParams<T extends Record<string, z.ZodType>>(
  c: Context<AppEnv>,
  shape: T,
):
  | { ok: true; data: { [K in keyof T]: z.infer<T[K]> } }
  | { ok: false; response: Response } {
  const parsed = z.object(shape).safeParse(c.req.param())
  if (parsed.success)
    return { ok: true, data: parsed.data as { [K in keyof T]: z.infer<T[K]> } }
  const issue = parsed.error.issues[0]
  return {
    ok: false,
    response: c.json(
      { message: `${issue?.path.join('.')}: ${issue?.message}` },
      400,
    ),
  }
}
