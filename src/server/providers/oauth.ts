// OAuth for connecting a Supabase or Neon account (not sign-in): arctic's generic client with
// PKCE S256 and HTTP Basic client authentication, endpoints from env so tests use the fakes.
import {
  CodeChallengeMethod,
  OAuth2Client,
  OAuth2RequestError,
  generateCodeVerifier,
  type OAuth2Tokens,
} from 'arctic'
import type { Env } from '../platform/env.ts'
import { UPSTREAM_TIMEOUT_MS } from '../platform/limits.ts'

export type ProviderName = 'supabase' | 'neon'
export const PROVIDER_NAMES: readonly ProviderName[] = ['supabase', 'neon']

export type GrantedTokens = {
  accessToken: string
  refreshToken: string | null
  expiresAt: Date | null
}

/** The grant is gone (revoked, expired, a refresh token already used): connect again. */
export class GrantRevokedError extends Error {}

type Endpoints = { authorize: string; token: string; revoke: string }

function endpoints(env: Env, provider: ProviderName): Endpoints {
  if (provider === 'supabase') {
    const base = env.SUPABASE_API_URL.replace(/\/$/, '')
    return {
      authorize: `${base}/v1/oauth/authorize`,
      token: `${base}/v1/oauth/token`,
      revoke: `${base}/v1/oauth/revoke`,
    }
  }
  const base = env.NEON_OAUTH_URL.replace(/\/$/, '')
  return {
    authorize: `${base}/oauth2/auth`,
    token: `${base}/oauth2/token`,
    revoke: `${base}/oauth2/revoke`,
  }
}

// Supabase fixes scopes when the OAuth app is registered; Neon asks for them here (offline
// for a refresh token, update to enable logical replication).
const SCOPES: Record<ProviderName, string[]> = {
  supabase: [],
  neon: [
    'openid',
    'offline',
    'offline_access',
    'urn:neoncloud:projects:read',
    'urn:neoncloud:projects:update',
  ],
}

/**
 * arctic accepts only a 200 from a token endpoint and takes no fetch of its own; Supabase's
 * answers 201. This shim, installed once for the token and revoke endpoints we configure, turns 201
 * into 200 (same body) and bounds the request's time; every other fetch passes untouched.
 */
const oauthEndpoints = new Set<string>()
function shimOAuthEndpoint(url: string) {
  if (oauthEndpoints.size === 0) {
    const original = globalThis.fetch
    globalThis.fetch = async (input, init) => {
      const target = input instanceof Request ? input.url : input.toString()
      if (!oauthEndpoints.has(target)) return original(input, init)
      const response = await original(input, {
        ...init,
        signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
      })
      if (response.status !== 201) return response
      return new Response(response.body, {
        status: 200,
        headers: response.headers,
      })
    }
  }
  oauthEndpoints.add(url)
}

function granted(tokens: OAuth2Tokens): GrantedTokens {
  const has = (key: string) => key in tokens.data
  return {
    accessToken: tokens.accessToken(),
    refreshToken: has('refresh_token') ? tokens.refreshToken() : null,
    expiresAt: has('expires_in') ? tokens.accessTokenExpiresAt() : null,
  }
}

export type ProviderOAuth = {
  begin(): string
  authorizationUrl(state: string, codeVerifier: string): URL
  exchange(code: string, codeVerifier: string): Promise<GrantedTokens>
  /** Throws GrantRevokedError when the provider refuses the refresh token. */
  refresh(refreshToken: string): Promise<GrantedTokens>
  revoke(tokens: {
    accessToken: string
    refreshToken: string | null
  }): Promise<void>
}

/** The provider's OAuth client, or null when this server has no OAuth app for it. */
export function providerOAuth(
  env: Env,
  provider: ProviderName,
  redirectUri: string,
): ProviderOAuth | null {
  const [id, secret] =
    provider === 'supabase'
      ? [env.SUPABASE_CLIENT_ID, env.SUPABASE_CLIENT_SECRET]
      : [env.NEON_CLIENT_ID, env.NEON_CLIENT_SECRET]
  if (!id || !secret) return null
  const urls = endpoints(env, provider)
  shimOAuthEndpoint(urls.token)
  shimOAuthEndpoint(urls.revoke)
  const client = new OAuth2Client(id, secret, redirectUri)
  return {
    begin: () => generateCodeVerifier(),
    authorizationUrl: (state, verifier) =>
      client.createAuthorizationURLWithPKCE(
        urls.authorize,
        state,
        CodeChallengeMethod.S256,
        verifier,
        SCOPES[provider],
      ),
    exchange: async (code, verifier) =>
      granted(
        await client.validateAuthorizationCode(urls.token, code, verifier),
      ),
    async refresh(refreshToken) {
      try {
        return granted(
          await client.refreshAccessToken(urls.token, refreshToken, []),
        )
      } catch (error) {
        if (error instanceof OAuth2RequestError)
          throw new GrantRevokedError(error.code)
        throw error
      }
    },
    async revoke(tokens) {
      if (provider === 'supabase') {
        // Supabase's revoke takes JSON with the client's credentials, not RFC 7009's form.
        await fetch(urls.revoke, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            client_id: id,
            client_secret: secret,
            refresh_token: tokens.refreshToken,
          }),
          signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
        })
        return
      }
      await client.revokeToken(
        urls.revoke,
        tokens.refreshToken ?? tokens.accessToken,
      )
    },
  }
}
