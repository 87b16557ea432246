// Who is asking, for limits kept per client.
import { isIP } from 'node:net'
import { getConnInfo } from '@hono/node-server/conninfo'
import type { Context } from 'hono'
import type { AppEnv } from './context.ts'

function socketPeer(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown'
  } catch {
    return 'unknown' // in-process requests (tests) have no socket
  }
}

/**
 * The socket's peer; behind TRUST_PROXY_HOPS proxies, the address the outermost of them saw.
 * Each proxy appends its peer to X-Forwarded-For, so only the last `hops` entries were written
 * by proxies the operator runs: anything further left came from the client and could be
 * anything. Without that many entries (a request that went round the proxies), or with one
 * that is not an address, the socket's peer stands: all such clients share one limit, which
 * fails safe.
 */
export function clientIp(c: Context<AppEnv>): string {
  const hops = c.var.deps.env.TRUST_PROXY_HOPS
  if (hops > 0) {
    const forwarded = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((entry) => entry.trim())
    const entry = forwarded.length >= hops ? forwarded.at(-hops) : undefined
    if (entry && isIP(entry) !== 0) return entry
  }
  return socketPeer(c)
}
