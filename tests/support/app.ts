// The app built in-process exactly as the server builds it, and a small "browser" that keeps
// cookies and sends what a browser would (Origin on POST, a Content-Length on every body).
import { createApp } from '../../src/server/app.ts'
import type { Db } from '../../src/server/platform/db/database.ts'
import { deriveServerKeys } from '../../src/server/platform/crypto/secret.ts'
import type { AppDeps } from '../../src/server/platform/http/context.ts'
import { parseEnv } from '../../src/server/platform/env.ts'
import { silentLogger } from '../../src/server/platform/log.ts'
import { NEON_OPERATIONS } from '../../src/server/providers/neon.ts'
import {
  DEFAULT_DATABASE_CHECKS,
  type DatabaseCheckSettings,
} from '../../src/server/validation/settings.ts'
import { CookieJar } from './cookie-jar.ts'
import { idleSources, noControlPlaneSync } from './idle-services.ts'

export type App = ReturnType<typeof createApp>

export const ORIGIN = 'http://localhost'

/** The keys every built app uses, so tests can open what it sealed. */
const TEST_KEYS = deriveServerKeys('test-secret-'.padEnd(32, 'x'))
export const TEST_SOURCE_PASSWORD_KEY = TEST_KEYS['source-passwords']
export const TEST_ALERT_SECRET_KEY = TEST_KEYS['alert-secrets']

/**
 * Every in-process request comes from one client address ('unknown'), so a file signing in many
 * users (or creating many claimable sources) would meet the per-IP limits meant for one
 * visitor; tests of those limits set them.
 */
const TEST_DEFAULTS = {
  LOCAL_LOGINS_PER_MINUTE: '1000',
  MAX_UNCLAIMED_SOURCES_PER_IP: '1000',
}

/** What a test may set of an app's services; the readiness check's settings one by one. */
export type AppOverrides = Partial<Omit<AppDeps, 'databaseChecks'>> & {
  databaseChecks?: Partial<DatabaseCheckSettings>
}

/**
 * An app's services as start.ts builds them, with fakes for what the test does not run (no
 * engine, no alert worker): a parsed env built only from `vars` (never from process.env).
 */
export function testDeps(
  db: Db,
  vars: Record<string, string> = {},
  { databaseChecks, ...overrides }: AppOverrides = {},
): AppDeps {
  return {
    env: parseEnv({ ...TEST_DEFAULTS, ...vars }),
    db,
    log: silentLogger,
    shapes: noControlPlaneSync,
    sources: idleSources,
    keys: TEST_KEYS,
    alerts: { kick() {} },
    providerOperations: NEON_OPERATIONS,
    now: Date.now,
    ...overrides,
    databaseChecks: { ...DEFAULT_DATABASE_CHECKS, ...databaseChecks },
  }
}

/** createApp over testDeps. */
export function buildApp(
  db: Db,
  vars: Record<string, string> = {},
  overrides: AppOverrides = {},
): App {
  return createApp(testDeps(db, vars, overrides))
}

export class Browser {
  readonly jar = new CookieJar()

  constructor(
    private readonly app: App,
    readonly origin = ORIGIN,
  ) {}

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const url = new URL(path, this.origin).toString()
    const headers = new Headers(init.headers)
    const cookie = this.jar.header(url)
    if (cookie && !headers.has('cookie')) headers.set('cookie', cookie)
    // Over HTTP/1.1 every body arrives framed by Content-Length; an in-process Request has none.
    const body = init.body
    if (
      (typeof body === 'string' || body instanceof Uint8Array) &&
      !headers.has('content-length')
    )
      headers.set('content-length', String(Buffer.byteLength(body)))
    const response = await this.app.request(url, { ...init, headers })
    this.jar.keep(response, url)
    return response
  }

  get(path: string, headers?: HeadersInit): Promise<Response> {
    return this.request(path, { headers })
  }

  /** A same-origin JSON POST, as the dashboard's fetch sends it. */
  postJson(path: string, body?: unknown): Promise<Response> {
    return this.request(path, {
      method: 'POST',
      headers: {
        origin: this.origin,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  }
}

let counter = 0

/** An email no other test uses, so tests sharing a database never meet. */
export function uniqueEmail(prefix = 'user'): string {
  counter += 1
  return `${prefix}-${counter}-${Math.random().toString(36).slice(2, 10)}@example.com`
}

/** Signs in through local login (no provider configured); returns the browser and user. */
export async function signInLocally(
  app: App,
  name = 'Ada Lovelace',
  email = uniqueEmail(),
): Promise<{
  browser: Browser
  user: { id: string; email: string; name: string }
}> {
  const browser = new Browser(app)
  const response = await browser.postJson('/api/public/auth/local/login', {
    name,
    email,
  })
  if (response.status !== 200)
    throw new Error(
      `local login answered ${response.status}: ${await response.text()}`,
    )
  const user = (await response.json()) as {
    id: string
    email: string
    name: string
  }
  return { browser, user }
}

/** The test keys, but source passwords sealed with `key` (a source server's own). */
export const keysWith = (key: Buffer): AppDeps['keys'] => ({
  ...TEST_KEYS,
  'source-passwords': key,
})
