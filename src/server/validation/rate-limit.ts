// Limits for the public check: a fixed window per client IP and a cap on checks running at
// once. Each check opens connections to a stranger's host; the endpoint must not be a cannon.
import {
  createRateLimiter,
  tooManyRequests,
  type RateAdmission,
} from '../platform/http/rate-limit.ts'

export type CheckLimits = {
  /** Checks one client IP may start per window. */
  perIp: number
  windowMs: number
  /** Checks running at once across all clients. */
  concurrent: number
}

export const DEFAULT_CHECK_LIMITS: CheckLimits = {
  perIp: 10,
  windowMs: 60_000,
  concurrent: 8,
}

export type Admission =
  | { admitted: true; release: () => void }
  | Extract<RateAdmission, { admitted: false }>

export function createCheckLimiter(
  limits: CheckLimits = DEFAULT_CHECK_LIMITS,
  now: () => number = Date.now,
) {
  const rate = createRateLimiter(
    { limit: limits.perIp, windowMs: limits.windowMs },
    now,
  )
  let running = 0

  return {
    admit(key: string): Admission {
      // The cap first: a check refused for being one too many at once is not counted.
      if (running >= limits.concurrent)
        return { admitted: false, retryAfterSeconds: 1 }
      const admission = rate.admit(key)
      if (!admission.admitted) return admission
      running += 1
      let released = false
      return {
        admitted: true,
        release: () => {
          if (!released) running -= 1
          released = true
        },
      }
    },
  }
}

/** The answer past a limit: 429 with when to try again. */
export const tooManyChecks = (retryAfterSeconds: number): Response =>
  tooManyRequests('Too many checks; please try again later.', retryAfterSeconds)
