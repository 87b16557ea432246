// A stand-in for GitHub and Google on 127.0.0.1: real HTTP, so Sluice's provider code (arctic,
// fetch, zod) runs unchanged. Tests grant a code for an identity, then drive the callback; the
// fake records every token request so tests can check what Sluice sent (PKCE, redirect URI).
import {
  createServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomBytes } from 'node:crypto'

type GitHubAccount = {
  id: number
  login: string
  name: string | null
  emails: { email: string; primary: boolean; verified: boolean }[]
}

type GoogleClaims = {
  sub: string
  email: string
  nonce: string
  name?: string
  email_verified?: boolean
  iss?: string
  aud?: string | string[]
  exp?: number
}

type TokenRequest = {
  provider: 'github' | 'google'
  grantType: string | null
  code: string | null
  codeVerifier: string | null
  redirectUri: string | null
  /** From the Basic authorization header. */
  clientId: string | null
  clientSecret: string | null
}

export type FakeOAuth = {
  url: string
  /** The variables that point Sluice at this fake for both providers. */
  env: Record<string, string>
  github: { grant(account: GitHubAccount): string }
  google: { grant(claims: GoogleClaims): string }
  tokenRequests: TokenRequest[]
  close(): Promise<void>
}

const CLIENTS = {
  github: { id: 'gh-client', secret: 'gh-secret' },
  google: { id: 'google-client.apps.example', secret: 'google-secret' },
}

const b64url = (value: unknown) =>
  Buffer.from(JSON.stringify(value)).toString('base64url')

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

function basicCredentials(
  req: IncomingMessage,
): [string | null, string | null] {
  const header = req.headers.authorization ?? ''
  if (!header.startsWith('Basic ')) return [null, null]
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  return [decoded.slice(0, colon), decoded.slice(colon + 1)]
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

export async function startFakeOAuth(): Promise<FakeOAuth> {
  const githubCodes = new Map<string, GitHubAccount>()
  const githubTokens = new Map<string, GitHubAccount>()
  const googleCodes = new Map<string, GoogleClaims>()
  const tokenRequests: TokenRequest[] = []
  let url = ''

  const tokenRequest = async (
    provider: 'github' | 'google',
    req: IncomingMessage,
  ): Promise<TokenRequest> => {
    const form = new URLSearchParams(await readBody(req))
    const [clientId, clientSecret] = basicCredentials(req)
    const recorded: TokenRequest = {
      provider,
      grantType: form.get('grant_type'),
      code: form.get('code'),
      codeVerifier: form.get('code_verifier'),
      redirectUri: form.get('redirect_uri'),
      clientId,
      clientSecret,
    }
    tokenRequests.push(recorded)
    return recorded
  }

  const clientOk = (provider: 'github' | 'google', r: TokenRequest) =>
    r.clientId === CLIENTS[provider].id &&
    r.clientSecret === CLIENTS[provider].secret

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', url).pathname
    const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '')

    if (req.method === 'POST' && path === '/login/oauth/access_token') {
      const r = await tokenRequest('github', req)
      if (!clientOk('github', r))
        return json(res, 401, { error: 'invalid_client' })
      const account = r.code ? githubCodes.get(r.code) : undefined
      if (!account || r.grantType !== 'authorization_code')
        return json(res, 400, { error: 'invalid_grant' })
      githubCodes.delete(r.code ?? '')
      const token = `gho_${randomBytes(12).toString('hex')}`
      githubTokens.set(token, account)
      return json(res, 200, { access_token: token, token_type: 'bearer' })
    }
    if (req.method === 'GET' && (path === '/user' || path === '/user/emails')) {
      const account = githubTokens.get(bearer)
      if (!account) return json(res, 401, { message: 'Bad credentials' })
      if (path === '/user/emails') return json(res, 200, account.emails)
      const { id, login, name } = account
      return json(res, 200, { id, login, name, email: null })
    }
    if (req.method === 'POST' && path === '/token') {
      const r = await tokenRequest('google', req)
      if (!clientOk('google', r))
        return json(res, 401, { error: 'invalid_client' })
      const claims = r.code ? googleCodes.get(r.code) : undefined
      if (!claims || r.grantType !== 'authorization_code')
        return json(res, 400, { error: 'invalid_grant' })
      googleCodes.delete(r.code ?? '')
      const idToken = [
        b64url({ alg: 'RS256', typ: 'JWT', kid: 'fake' }),
        b64url({
          iss: url,
          aud: CLIENTS.google.id,
          exp: Math.floor(Date.now() / 1000) + 3600,
          iat: Math.floor(Date.now() / 1000),
          email_verified: true,
          ...claims,
        }),
        'c2lnbmF0dXJl',
      ].join('.')
      return json(res, 200, {
        access_token: `ya29.${randomBytes(12).toString('hex')}`,
        id_token: idToken,
        token_type: 'Bearer',
        expires_in: 3599,
      })
    }
    json(res, 404, { error: 'not_found' })
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) =>
      json(res, 500, { error: error.message }),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const code = () => randomBytes(10).toString('hex')
  return {
    url,
    env: {
      GITHUB_CLIENT_ID: CLIENTS.github.id,
      GITHUB_CLIENT_SECRET: CLIENTS.github.secret,
      GITHUB_AUTHORIZE_URL: `${url}/login/oauth/authorize`,
      GITHUB_TOKEN_URL: `${url}/login/oauth/access_token`,
      GITHUB_API_URL: url,
      GOOGLE_CLIENT_ID: CLIENTS.google.id,
      GOOGLE_CLIENT_SECRET: CLIENTS.google.secret,
      GOOGLE_AUTHORIZE_URL: `${url}/o/oauth2/v2/auth`,
      GOOGLE_TOKEN_URL: `${url}/token`,
      GOOGLE_ISSUER: url,
    },
    github: {
      grant(account) {
        const c = code()
        githubCodes.set(c, account)
        return c
      },
    },
    google: {
      grant(claims) {
        const c = code()
        googleCodes.set(c, claims)
        return c
      },
    },
    tokenRequests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // fetch keeps connections alive; drop them so close() does not wait for their timeout.
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}
