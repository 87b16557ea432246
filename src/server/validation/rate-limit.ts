// Limits for the public check: a fixed window per client IP and a cap on checks running at
// once. Each check opens connections to a stranger's host; the endpoint must not be a cannon.
// The window's counts are the control plane's, shared by every server (http/rate-limit.ts);
// the cap is this server's own, as the connections it bounds are.
import type { Db } from '../platform/db/database.ts'
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

/** `name` names the window's counts in the control plane: one per route that checks. */
export function createCheckLimiter(
  name: string,
  limits: CheckLimits = DEFAULT_CHECK_LIMITS,
  now: () => number = Date.now,
) {
  const rate = { limit: limits.perIp, windowMs: limits.windowMs }
  let running = 0

  return {
    async admit(db: Db, key: string): Promise<Admission> {
      // The cap first: a check refused for being one too many at once is not counted. Taken
      // before the count is read, so checks arriving meanwhile see it.
      if (running >= limits.concurrent)
        return { admitted: false, retryAfterSeconds: 1 }
      running += 1
      let released = false
      const release = () => {
        if (!released) running -= 1
        released = true
      }
      try {
        const admission = await createRateLimiter(db, name, rate, now).admit(
          key,
        )
        if (!admission.admitted) release()
        return admission.admitted ? { admitted: true, release } : admission
      } catch (error) {
        release()
        throw error
      }
    },
  }
}

/** The answer past a limit: 429 with when to try again. */
export const tooManyChecks = (retryAfterSeconds: number): Response =>
  tooManyRequests('Too many checks; please try again later.', retryAfterSeconds)
