// Limits for the public check: a fixed window per client IP and a cap on checks running at
// once. Each check opens connections to a stranger's host; the endpoint must not be a cannon.

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
  | { admitted: false; retryAfterSeconds: number }

export function createCheckLimiter(
  limits: CheckLimits = DEFAULT_CHECK_LIMITS,
  now: () => number = Date.now,
) {
  const windows = new Map<string, { start: number; count: number }>()
  let running = 0

  // Old windows are dropped as new requests come, so the map stays as small as the traffic.
  const sweep = (time: number) => {
    for (const [ip, window] of windows)
      if (time - window.start >= limits.windowMs) windows.delete(ip)
  }

  return {
    admit(ip: string): Admission {
      const time = now()
      sweep(time)
      const window = windows.get(ip) ?? { start: time, count: 0 }
      if (window.count >= limits.perIp) {
        const wait = window.start + limits.windowMs - time
        return { admitted: false, retryAfterSeconds: Math.ceil(wait / 1000) }
      }
      if (running >= limits.concurrent)
        return { admitted: false, retryAfterSeconds: 1 }
      window.count += 1
      windows.set(ip, window)
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

export type CheckLimiter = ReturnType<typeof createCheckLimiter>

/** The answer past a limit: 429 with when to try again. */
export function tooManyChecks(retryAfterSeconds: number): Response {
  return Response.json(
    { message: 'Too many checks; please try again later.' },
    { status: 429, headers: { 'retry-after': String(retryAfterSeconds) } },
  )
}
