// Fixed-window rate limits: each key (a client IP, a user, a team) may be admitted `limit`
// times per window. Every limiter of the server is one of these, so they all answer alike.
// The counts live in the control plane (migrations/server/0015_rate_limits.sql), so servers
// sharing it share every limit: a client spreading requests over them gets no more.
import type { Db } from '../db/database.ts'

export type RateLimit = {
  /** Admissions one key may have per window. */
  limit: number
  windowMs: number
}

export type RateAdmission =
  { admitted: true } | { admitted: false; retryAfterSeconds: number }

export type RateLimiter = {
  /** Names the limiter's counts in the control plane: the same on every server. */
  name: string
  rate: RateLimit
  db: Db
  now: () => number
  /**
   * Admits a request counted against every key, or none: a refusal consumes nothing, so a
   * user refused for their team's rate keeps their own.
   */
  admit(...keys: string[]): Promise<RateAdmission>
}

/** `now` is injectable so tests move time instead of waiting for it. */
export function createRateLimiter(
  db: Db,
  name: string,
  rate: RateLimit,
  now: () => number = Date.now,
): RateLimiter {
  const limiter: RateLimiter = {
    name,
    rate,
    db,
    now,
    admit: (...keys) => admitAll(...keys.map((key) => [limiter, key] as const)),
  }
  return limiter
}

/**
 * Admits against several limiters, each with its own key and limit, or against none (a
 * refusal by one consumes nothing of the others). One statement: the control plane locks the
 * counts, so no request slips between the look and the count, whichever server it reached.
 * The first limiter's database and clock serve them all.
 */
export async function admitAll(
  ...checks: (readonly [RateLimiter, string])[]
): Promise<RateAdmission> {
  const [first] = checks
  if (!first) return { admitted: true }
  const { db, now } = first[0]
  const { rows } = await db.query<{ wait_ms: string }>(
    'select rate_limit_admit($1, $2, $3, $4, $5) as wait_ms',
    [
      checks.map(([limiter]) => limiter.name),
      checks.map(([, key]) => key),
      checks.map(([limiter]) => limiter.rate.limit),
      checks.map(([limiter]) => limiter.rate.windowMs),
      now(),
    ],
  )
  const waitMs = Number(rows[0]?.wait_ms ?? 0)
  if (waitMs <= 0) return { admitted: true }
  // At least 1: a retry-after of 0 invites an immediate, equally refused retry.
  return {
    admitted: false,
    retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
  }
}

/** Deletes the counts whose window has ended: they already count as empty. */
export async function pruneRateLimits(
  db: Db,
  now: number = Date.now(),
): Promise<void> {
  await db.query('delete from rate_limits where window_ends_ms <= $1', [now])
}

/** The answer past a limit: 429, a message the dashboard can show, and when to try again. */
export function tooManyRequests(
  message: string,
  retryAfterSeconds: number,
): Response {
  return Response.json(
    { message },
    { status: 429, headers: { 'retry-after': String(retryAfterSeconds) } },
  )
}
