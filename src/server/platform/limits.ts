// What one client may ask of the server: every body cap, named once, and the rate limiters
// built from the limits operators tune (env.ts holds those and their defaults).
import { MAX_BODY_BYTES } from '../../engine/index.ts'
import type { Db } from './db/database.ts'
import type { Env } from './env.ts'
import { createRateLimiter } from './http/rate-limit.ts'

/** JSON API bodies: the largest legitimate one (a source create) is well under 3 KB. */
export const JSON_BODY_LIMIT_BYTES = 8 * 1024

/**
 * An app's subset request (POST /v1/shape): the engine's own bound, since on-demand clients
 * send where clauses with long key lists (TanStack DB asks for a page of keys at a time).
 */
export const SUBSET_BODY_LIMIT_BYTES = MAX_BODY_BYTES

/** A browser profile's watch (POST /v1/watch): up to 256 live requests' paths and queries. */
export const LIVE_WATCH_BODY_LIMIT_BYTES = 256 * 1024

/** /ingest forwards posthog-js batches, which hold many events and can be large. */
export const INGEST_BODY_LIMIT_BYTES = 1024 * 1024

/** The longest a call to a provider's API or token endpoint may take before it is a 502. */
export const UPSTREAM_TIMEOUT_MS = 15_000

/** Each parameter a provider sends to the OAuth callback; real ones are far shorter. */
export const OAUTH_PARAM_MAX_LENGTH = 2048

/**
 * Pending OAuth sign-ins kept at once (oauth_states). Anyone may start one; past this the
 * oldest go. A real user's state lives while they are at the provider (seconds to a minute), so
 * a flood must outpace this many starts in that time to cost one, where refusing new ones
 * would only need the table kept full (this many per 10 min state lifetime).
 */
export const OAUTH_STATES_MAX = 1000

/**
 * 'Send test alert': each queues a delivery that is retried, to a host the team chose. Enough
 * to try a fix several times on one destination, and every destination of a full team once.
 */
export const TEST_ALERTS_PER_DESTINATION_PER_MINUTE = 5
export const TEST_ALERTS_PER_TEAM_PER_MINUTE = 10

/** The window of every per-minute rate. */
const RATE_WINDOW_MS = 60_000

export type Limiters = ReturnType<typeof createLimiters>

/**
 * The limiters of an app, counting in its control plane: apps on one control plane (servers
 * sharing it, or tests sharing a database) share every count.
 */
export function createLimiters(db: Db, env: Env, now: () => number = Date.now) {
  const perMinute = (name: string, limit: number) =>
    createRateLimiter(db, name, { limit, windowMs: RATE_WINDOW_MS }, now)
  return {
    /** Keyed by client IP. */
    localLogins: perMinute('local-logins', env.LOCAL_LOGINS_PER_MINUTE),
    /** Keyed by user (or API token) and by team: a create counts against both. */
    sourceCreates: perMinute('source-creates', env.SOURCE_CREATES_PER_MINUTE),
    /** Keyed by API token: every request a token makes (api-tokens/bearer.ts). */
    apiTokenRequests: perMinute(
      'api-token-requests',
      env.API_TOKEN_REQUESTS_PER_MINUTE,
    ),
    /** Keyed by destination and by team, each with its own limit (admitAll). */
    testAlerts: {
      perDestination: perMinute(
        'test-alerts-per-destination',
        TEST_ALERTS_PER_DESTINATION_PER_MINUTE,
      ),
      perTeam: perMinute(
        'test-alerts-per-team',
        TEST_ALERTS_PER_TEAM_PER_MINUTE,
      ),
    },
  }
}
