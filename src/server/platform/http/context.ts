// What every request handler may use: the parsed config, the control-plane pool and the user.
import type { ShapeDatabase } from '../../../engine/database.ts'
import type { Env } from '../env.ts'
import type { Db } from '../db/database.ts'
import type { SessionRequests } from '../../auth/session-requests.ts'
import type { SessionUser } from '../../auth/sessions.ts'
import type { Logger } from '../log.ts'
import type { Metrics } from '../../../engine/ops/metrics.ts'
import type { AlertWorker } from '../../alerts/worker.ts'
import type { SourceRuntime } from '../../sources/runtime/runtime.ts'
import type { DatabaseCheckSettings } from '../../validation/settings.ts'

export type AppDeps = {
  env: Env
  db: Db
  log: Logger
  /** The built SPA; when absent the server answers API calls only. */
  distDir?: string
  /** The control plane as the engine serves it: the dashboard's synced shapes. */
  shapes?: ShapeDatabase
  /** Runs users' sources; absent in tests that need no engine (source actions then answer 503). */
  sources?: SourceRuntime
  /** AES-256-GCM key for source passwords (crypto/source-passwords.ts), derived from the secret. */
  sourcePasswordKey?: Buffer
  /** AES-256-GCM key for provider tokens (crypto/provider-tokens.ts), derived from the secret. */
  providerTokenKey?: Buffer
  /** AES-256-GCM key for alert destinations' secrets; without it, destinations cannot be made. */
  alertSecretKey?: Buffer
  /** The alert worker, kicked when a test alert is queued; tests may leave it out. */
  alerts?: AlertWorker
  /** How long enabling Neon's logical replication may take, and how often to look; tests shorten. */
  providerOperations?: { pollMs: number; timeoutMs: number }
  /** The readiness check's resolver and limits; tests stub the one and tighten the other. */
  databaseChecks?: DatabaseCheckSettings
  /** Where requests are counted for GET /metrics; absent when METRICS_PORT is unset. */
  metrics?: Metrics
  /** The clock of the rate limits (limits.ts); tests move it instead of waiting. */
  now?: () => number
}

export type AppEnv = {
  Variables: {
    deps: AppDeps
    user: SessionUser
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
