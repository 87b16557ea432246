// Who is asking, for limits kept per client.
import { getConnInfo } from '@hono/node-server/conninfo'
import type { Context } from 'hono'

/**
 * The socket's peer, never X-Forwarded-For (anyone can write that header). Behind a proxy all
 * visitors share its address; a per-IP limit then acts as a global one, which fails safe.
 */
export function clientIp(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown'
  } catch {
    return 'unknown' // in-process requests (tests) have no socket
  }
}
