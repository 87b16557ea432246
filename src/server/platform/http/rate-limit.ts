// Fixed-window rate limits: each key (a client IP, a user, a team) may be admitted `limit`
// times per window. Every limiter of the server is one of these, so they all answer alike.

export type RateLimit = {
  /** Admissions one key may have per window. */
  limit: number
  windowMs: number
}

export type RateAdmission =
  { admitted: true } | { admitted: false; retryAfterSeconds: number }

/** `now` is injectable so tests move time instead of waiting for it. */
export function createRateLimiter(
  rate: RateLimit,
  now: () => number = Date.now,
) {
  const windows = new Map<string, { start: number; count: number }>()
  const expired = (window: { start: number }, time: number) =>
    time - window.start >= rate.windowMs

  // Old windows are dropped now and then (not on every request: that would cost a pass over
  // every key per request), so the map stays about as small as a window's traffic.
  let lastSweep = now()
  const sweep = (time: number) => {
    if (time - lastSweep < rate.windowMs / 4) return
    lastSweep = time
    for (const [key, window] of windows)
      if (expired(window, time)) windows.delete(key)
  }
  const windowOf = (key: string, time: number) => {
    const window = windows.get(key)
    return window && !expired(window, time) ? window : { start: time, count: 0 }
  }
  const refusal = (
    current: (readonly [string, { start: number; count: number }])[],
    time: number,
  ): RateAdmission | null => {
    const full = current.filter(([, window]) => window.count >= rate.limit)
    if (full.length === 0) return null
    const reopens = Math.max(...full.map(([, w]) => w.start + rate.windowMs))
    // At least 1: a retry-after of 0 invites an immediate, equally refused retry.
    const retryAfterSeconds = Math.max(1, Math.ceil((reopens - time) / 1000))
    return { admitted: false, retryAfterSeconds }
  }
  const windowsOf = (keys: string[], time: number) =>
    keys.map((key) => [key, windowOf(key, time)] as const)

  return {
    /**
     * Admits a request counted against every key, or none: a refusal consumes nothing, so a
     * user refused for their team's rate keeps their own.
     */
    admit(...keys: string[]): RateAdmission {
      const time = now()
      sweep(time)
      const current = windowsOf(keys, time)
      const refused = refusal(current, time)
      if (refused) return refused
      for (const [key, window] of current) {
        window.count += 1
        windows.set(key, window)
      }
      return { admitted: true }
    },
    /** What admit would answer now, consuming nothing. */
    peek(...keys: string[]): RateAdmission {
      const time = now()
      return refusal(windowsOf(keys, time), time) ?? { admitted: true }
    },
  }
}

export type RateLimiter = ReturnType<typeof createRateLimiter>

/**
 * Admits against several limiters, each with its own key and limit, or against none (a
 * refusal by one consumes nothing of the others). Synchronous, so no request slips between
 * the look and the count.
 */
export function admitAll(
  ...checks: (readonly [RateLimiter, string])[]
): RateAdmission {
  const refusals = checks
    .map(([limiter, key]) => limiter.peek(key))
    .flatMap((answer) => (answer.admitted ? [] : [answer.retryAfterSeconds]))
  if (refusals.length > 0)
    return { admitted: false, retryAfterSeconds: Math.max(...refusals) }
  for (const [limiter, key] of checks) limiter.admit(key)
  return { admitted: true }
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
