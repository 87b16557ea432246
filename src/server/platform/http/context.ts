// What every request handler may use: the services start.ts builds once, the parsed config and
// the user. Every service is required: tests pass fakes in (tests/support/app.ts), so no
// handler branches on a service being absent.
import type { ShapeDatabase, Metrics } from '../../../engine/index.ts'
import type { Env } from '../env.ts'
import type { Db } from '../db/database.ts'
import type { ServerKeys } from '../crypto/secret.ts'
import type { SessionRequests } from '../../auth/session-requests.ts'
import type { SessionUser } from '../../auth/sessions.ts'
import type { TokenCaller } from '../../api-tokens/api-tokens.ts'
import type { Logger } from '../log.ts'
import type { SourceRuntime } from '../../sources/runtime/runtime.ts'
import type { DatabaseCheckSettings } from '../../validation/settings.ts'

export type AppDeps = {
  env: Env
  db: Db
  log: Logger
  /** The built SPA; an app built without it answers API calls only (createApp decides once). */
  distDir?: string
  /** The control plane as the engine serves it: the dashboard's synced shapes. */
  shapes: ShapeDatabase
  /** Runs users' sources on this server's engine. */
  sources: SourceRuntime
  /** Keys derived from the root secret, one per purpose. */
  keys: ServerKeys
  /** The alert worker, kicked when a test alert is queued. */
  alerts: { kick(): void }
  /** How long enabling Neon's logical replication may take, and how often to look. */
  providerOperations: { pollMs: number; timeoutMs: number }
  /** The readiness check's resolver and limits. */
  databaseChecks: DatabaseCheckSettings
  /** Where requests are counted for GET /metrics: only when METRICS_PORT is set. */
  metrics?: Metrics
  /** The clock of the rate limits (limits.ts). */
  now: () => number
}

export type AppEnv = {
  Variables: {
    deps: AppDeps
    /** Set on a signed-in user's requests; a Bearer request (apiToken) has none. */
    user: SessionUser
    /** Set on a request with a team's API token (api-tokens/bearer.ts); never with `user`. */
    apiToken?: TokenCaller
    /** This app's open shape requests per session (one registry per app). */
    sessionRequests: SessionRequests
  }
}

/** Our own origin: PUBLIC_URL when set, else the one the request was addressed to. */
export function ownOrigin(env: Env, requestUrl: string): string {
  return new URL(env.PUBLIC_URL ?? requestUrl).origin
}

export function isHttps(env: Env, requestUrl: string): boolean {
  return ownOrigin(env, requestUrl).startsWith('https:')
}
