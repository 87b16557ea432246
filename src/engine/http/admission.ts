// Admission control for shape requests, as Electric's: a count of the requests in flight of
// each kind, and past its limit an immediate 503 with Retry-After, never a queue. A request is
// "existing" when it names a handle this engine serves, else "initial" (it may create a shape
// and take a snapshot, the costly part). A permit is held until the response closes, so a
// parked long-poll and an SSE stream count for as long as they wait, as in Electric.
import type { ServerResponse } from 'node:http'
import { corsHeaders } from './responses.ts'

export type RequestKind = 'initial' | 'existing'

export type MaxConcurrentRequests = { initial: number; existing: number }

/** Electric's ELECTRIC_MAX_CONCURRENT_REQUESTS default. */
export const DEFAULT_MAX_CONCURRENT_REQUESTS: MaxConcurrentRequests = {
  initial: 300,
  existing: 10_000,
}

/**
 * Seconds a refused client should wait: Electric's 5 plus 1..5 at random, so the refused do
 * not all come back at once. Electric does not (yet) read its load for this, nor does this.
 */
export function retryAfterSeconds(random: () => number = Math.random): number {
  return 6 + Math.floor(random() * 5)
}

/** Electric's words: clients and dashboards may match the code. */
function rejectionBody(kind: RequestKind, limit: number): string {
  return JSON.stringify({
    code: 'concurrent_request_limit_exceeded',
    message: `Concurrent ${kind} request limit exceeded (limit: ${limit}), please retry`,
  })
}

export class Admission {
  private initial = 0
  private existing = 0
  // Made once: a 'close' listener per request is then a reference, not a closure.
  private readonly releaseInitial = () => {
    if (this.initial > 0) this.initial--
  }
  private readonly releaseExisting = () => {
    if (this.existing > 0) this.existing--
  }
  private readonly bodies: Record<RequestKind, Buffer>

  constructor(
    private readonly limits: MaxConcurrentRequests = DEFAULT_MAX_CONCURRENT_REQUESTS,
  ) {
    this.bodies = {
      initial: Buffer.from(rejectionBody('initial', limits.initial)),
      existing: Buffer.from(rejectionBody('existing', limits.existing)),
    }
  }

  /** Requests in flight of each kind (tests, metrics). */
  get inFlight(): MaxConcurrentRequests {
    return { initial: this.initial, existing: this.existing }
  }

  /** Takes a permit, or false at the limit. Each permit taken is released once. */
  tryAcquire(kind: RequestKind): boolean {
    if (kind === 'initial') {
      if (this.initial >= this.limits.initial) return false
      this.initial++
    } else {
      if (this.existing >= this.limits.existing) return false
      this.existing++
    }
    return true
  }

  release(kind: RequestKind): void {
    if (kind === 'initial') this.releaseInitial()
    else this.releaseExisting()
  }

  /**
   * Admits the request whose response this is, its permit released when the response closes
   * (answered, or its client gone); or answers 503 and says false.
   */
  admit(kind: RequestKind, response: ServerResponse): boolean {
    if (!this.tryAcquire(kind)) {
      this.refuse(kind, response)
      return false
    }
    response.on(
      'close',
      kind === 'initial' ? this.releaseInitial : this.releaseExisting,
    )
    return true
  }

  private refuse(kind: RequestKind, response: ServerResponse): void {
    const body = this.bodies[kind]
    response.writeHead(503, {
      'content-type': 'application/json',
      'content-length': String(body.length),
      'cache-control': 'no-store',
      'surrogate-control': 'no-store',
      'retry-after': String(retryAfterSeconds()),
      'electric-internal-known-error': 'true',
      ...corsHeaders(true),
    })
    response.end(body)
  }
}
