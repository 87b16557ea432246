// The two identity providers behind one interface. Endpoints come from config so that tests
// drive this exact code against a small fake provider.
import {
  CodeChallengeMethod,
  OAuth2Client,
  decodeIdToken,
  generateCodeVerifier,
} from 'arctic'
import { z } from 'zod'
import type { Env } from '../platform/env.ts'
import type { PendingSignIn } from './oauth-states.ts'
import { randomToken } from './tokens.ts'

export type ProviderName = 'github' | 'google'

type ProviderIdentity = { subject: string; email: string; name: string }

export interface Provider {
  name: ProviderName
  /** Secrets this sign-in needs at the callback (PKCE verifier, nonce). */
  begin(): PendingSignIn
  authorizationUrl(state: string, pending: PendingSignIn): URL
  identify(code: string, pending: PendingSignIn): Promise<ProviderIdentity>
}

class SignInError extends Error {}

/**
 * A profile comes from outside, and Postgres text cannot hold NUL: a name keeps its other
 * characters (its owner need not edit it to sign in); an address or subject holding one is no
 * identity to match, so that sign-in fails like any other refusal.
 */
function storable(identity: ProviderIdentity): ProviderIdentity {
  if (identity.subject.includes('\0') || identity.email.includes('\0'))
    throw new SignInError('The account email or id holds a NUL character')
  return { ...identity, name: identity.name.replaceAll('\0', '') }
}

const githubUser = z.object({
  id: z.number(),
  login: z.string(),
  name: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
})
const githubEmails = z.array(
  z.object({ email: z.string(), primary: z.boolean(), verified: z.boolean() }),
)

function github(env: Env, redirectUri: string): Provider {
  const client = new OAuth2Client(
    env.GITHUB_CLIENT_ID ?? '',
    env.GITHUB_CLIENT_SECRET ?? '',
    redirectUri,
  )
  const api = async (path: string, token: string) => {
    const response = await fetch(`${env.GITHUB_API_URL}${path}`, {
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/vnd.github+json',
        'user-agent': 'sluice',
      },
    })
    if (!response.ok)
      throw new SignInError(`GitHub ${path} answered ${response.status}`)
    return response.json() as Promise<unknown>
  }
  return {
    name: 'github',
    begin: () => ({ codeVerifier: null, nonce: null }),
    authorizationUrl: (state) =>
      client.createAuthorizationURL(env.GITHUB_AUTHORIZE_URL, state, [
        'read:user',
        'user:email',
      ]),
    async identify(code) {
      const tokens = await client.validateAuthorizationCode(
        env.GITHUB_TOKEN_URL,
        code,
        null,
      )
      const token = tokens.accessToken()
      const user = githubUser.parse(await api('/user', token))
      // The profile email may be hidden or unverified; the primary verified address is not.
      const emails = githubEmails.parse(await api('/user/emails', token))
      const primary = emails.find((e) => e.primary && e.verified)
      if (!primary)
        throw new SignInError('GitHub account has no verified primary email')
      return storable({
        subject: String(user.id),
        email: primary.email,
        name: user.name ?? user.login,
      })
    },
  }
}

const googleClaims = z.object({
  iss: z.string(),
  aud: z.union([z.string(), z.array(z.string())]),
  sub: z.string(),
  exp: z.number(),
  nonce: z.string().optional(),
  email: z.string(),
  email_verified: z.boolean().optional(),
  name: z.string().optional(),
})

function google(env: Env, redirectUri: string): Provider {
  const clientId = env.GOOGLE_CLIENT_ID ?? ''
  const client = new OAuth2Client(
    clientId,
    env.GOOGLE_CLIENT_SECRET ?? '',
    redirectUri,
  )
  const issuers = new Set([env.GOOGLE_ISSUER])
  if (env.GOOGLE_ISSUER === 'https://accounts.google.com')
    issuers.add('accounts.google.com')
  return {
    name: 'google',
    begin: () => ({
      codeVerifier: generateCodeVerifier(),
      nonce: randomToken(),
    }),
    authorizationUrl(state, pending) {
      const url = client.createAuthorizationURLWithPKCE(
        env.GOOGLE_AUTHORIZE_URL,
        state,
        CodeChallengeMethod.S256,
        pending.codeVerifier ?? '',
        ['openid', 'email', 'profile'],
      )
      url.searchParams.set('nonce', pending.nonce ?? '')
      return url
    },
    async identify(code, pending) {
      const tokens = await client.validateAuthorizationCode(
        env.GOOGLE_TOKEN_URL,
        code,
        pending.codeVerifier,
      )
      // The ID token comes straight from the token endpoint over TLS, so (OIDC Core 3.1.3.7)
      // its claims are checked here rather than its signature.
      const claims = googleClaims.parse(decodeIdToken(tokens.idToken()))
      const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud]
      if (!issuers.has(claims.iss))
        throw new SignInError('ID token from an unexpected issuer')
      if (!audiences.includes(clientId))
        throw new SignInError('ID token for another client')
      if (claims.exp * 1000 < Date.now())
        throw new SignInError('ID token has expired')
      if (!pending.nonce || claims.nonce !== pending.nonce)
        throw new SignInError('ID token nonce does not match')
      if (claims.email_verified !== true)
        throw new SignInError('Google account email is not verified')
      return storable({
        subject: claims.sub,
        email: claims.email,
        name: claims.name ?? '',
      })
    },
  }
}

export function configuredProviders(
  env: Env,
  baseUrl: string,
): Map<ProviderName, Provider> {
  const providers = new Map<ProviderName, Provider>()
  const redirect = (name: ProviderName) =>
    `${baseUrl}/api/public/auth/${name}/callback`
  if (env.githubEnabled)
    providers.set('github', github(env, redirect('github')))
  if (env.googleEnabled)
    providers.set('google', google(env, redirect('google')))
  return providers
}
