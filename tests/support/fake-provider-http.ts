// What the fake Supabase and Neon share: a real HTTP server on 127.0.0.1, an OAuth grant store
// that behaves like theirs (PKCE S256, single-use codes, refresh tokens that rotate and work
// once, revocation), and a control endpoint so a test in another process (e2e) scripts the fake
// with the same calls an in-process test makes: `POST {url}/_control/{method}` with a JSON
// array of arguments answers the method's result as JSON.
import { createHash, randomBytes } from 'node:crypto'
import {
  createServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo } from 'node:net'

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export function json(res: ServerResponse, status: number, body?: unknown) {
  if (body === undefined) {
    res.writeHead(status)
    res.end()
    return
  }
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

export function basicCredentials(req: IncomingMessage): [string, string] {
  const header = req.headers.authorization ?? ''
  if (!header.startsWith('Basic ')) return ['', '']
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  return [decoded.slice(0, colon), decoded.slice(colon + 1)]
}

export const bearer = (req: IncomingMessage) =>
  (req.headers.authorization ?? '').replace(/^Bearer /, '')

type Handler = (
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
) => Promise<void>

/** Serves `handle`, plus the control endpoint over `control`'s methods. */
export async function serve(
  handle: Handler,
  control: Record<string, unknown>,
): Promise<{ url: string; close(): Promise<void> }> {
  let base = ''
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', base)
    const run = async () => {
      const name = /^\/_control\/(\w+)$/.exec(url.pathname)?.[1]
      if (req.method === 'POST' && name) {
        const method = control[name]
        if (typeof method !== 'function')
          return json(res, 404, { error: `no control ${name}` })
        const args = JSON.parse((await readBody(req)) || '[]') as unknown[]
        const result: unknown = await (method as (...a: unknown[]) => unknown)(
          ...args,
        )
        return json(res, 200, result ?? null)
      }
      await handle(req, res, url)
    }
    run().catch((error: Error) => json(res, 500, { message: error.message }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url: base,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}

type Grant = { id: number; expiresAt: number }

/** What a fake remembers of the token requests Sluice made. */
export type TokenRequestRecord = {
  grantType: string | null
  clientId: string
  codeVerifier: string | null
  refreshToken: string | null
  /** A refresh token that was already used or revoked: the bug Sluice must avoid. */
  refused: boolean
}

const token = (prefix: string) => `${prefix}${randomBytes(16).toString('hex')}`

/** OAuth grants as both providers keep them. `expiresIn` in seconds, scriptable. */
export class GrantStore {
  expiresIn = 3600
  readonly tokenRequests: TokenRequestRecord[] = []
  readonly revoked: string[] = []
  private readonly codes = new Map<
    string,
    { challenge: string; redirectUri: string }
  >()
  private readonly access = new Map<string, Grant>()
  private readonly refresh = new Map<string, Grant>()
  private readonly personal = new Set<string>()
  private next = 1
  // Token answers held back until released: a test keeps a refresh in flight at the provider
  // while its other requests arrive.
  private gate: Promise<void> | null = null
  private open = () => {}
  /** Token requests waiting for releaseTokens(). */
  held = 0

  constructor(private readonly prefix: string) {}

  holdTokens(): void {
    this.gate ??= new Promise((resolve) => (this.open = resolve))
  }

  releaseTokens(): void {
    this.open()
    this.gate = null
  }

  /** The token endpoint's turn: at once, unless answers are held. */
  async tokenTurn(): Promise<void> {
    if (!this.gate) return
    this.held++
    try {
      await this.gate
    } finally {
      this.held--
    }
  }

  /** The authorize endpoint, approving at once: a code for this PKCE challenge. */
  authorize(url: URL): string | null {
    const redirectUri = url.searchParams.get('redirect_uri') ?? ''
    const challenge = url.searchParams.get('code_challenge') ?? ''
    if (url.searchParams.get('code_challenge_method') !== 'S256') return null
    const code = token('code_')
    this.codes.set(code, { challenge, redirectUri })
    const back = new URL(redirectUri)
    back.searchParams.set('code', code)
    back.searchParams.set('state', url.searchParams.get('state') ?? '')
    return back.toString()
  }

  private issue(id: number) {
    const accessToken = token(`${this.prefix}at_`)
    const refreshToken = token(`${this.prefix}rt_`)
    const expiresAt = Date.now() + this.expiresIn * 1000
    this.access.set(accessToken, { id, expiresAt })
    this.refresh.set(refreshToken, { id, expiresAt: Infinity })
    return {
      access_token: accessToken,
      refresh_token: refreshToken,
      expires_in: this.expiresIn,
      token_type: 'bearer',
    }
  }

  /** The token endpoint's form: tokens, or null for invalid_grant. */
  exchange(form: URLSearchParams, clientId: string) {
    const grantType = form.get('grant_type')
    const record: TokenRequestRecord = {
      grantType,
      clientId,
      codeVerifier: form.get('code_verifier'),
      refreshToken: form.get('refresh_token'),
      refused: false,
    }
    this.tokenRequests.push(record)
    if (grantType === 'authorization_code') {
      const code = this.codes.get(form.get('code') ?? '')
      this.codes.delete(form.get('code') ?? '')
      const verifier = form.get('code_verifier') ?? ''
      const challenge = createHash('sha256')
        .update(verifier)
        .digest('base64url')
      if (
        !code ||
        code.challenge !== challenge ||
        code.redirectUri !== form.get('redirect_uri')
      )
        return null
      return this.issue(this.next++)
    }
    const used = this.refresh.get(record.refreshToken ?? '')
    if (grantType !== 'refresh_token' || !used) {
      record.refused = true
      return null
    }
    // Rotation: the refresh token works once, and the grant's old access tokens stop working.
    this.refresh.delete(record.refreshToken ?? '')
    for (const [t, g] of this.access)
      if (g.id === used.id) this.access.delete(t)
    return this.issue(used.id)
  }

  /** True when `value` is a live access token or personal token. */
  accepts(value: string): boolean {
    if (this.personal.has(value)) return true
    const grant = this.access.get(value)
    return grant !== undefined && grant.expiresAt > Date.now()
  }

  addPersonalToken(value: string) {
    this.personal.add(value)
  }

  /** Revokes the grant a token (access or refresh) belongs to, or a personal token. */
  revoke(value: string) {
    this.revoked.push(value)
    this.personal.delete(value)
    const grant = this.access.get(value) ?? this.refresh.get(value)
    if (!grant) return
    for (const map of [this.access, this.refresh])
      for (const [t, g] of map) if (g.id === grant.id) map.delete(t)
  }

  /** Every token stops working, as if the user revoked the app at the provider. */
  revokeAll() {
    this.access.clear()
    this.refresh.clear()
    this.personal.clear()
  }
}
