// Supabase's two host traps, said plainly. Its direct host (db.<ref>.supabase.co) is IPv6-only
// unless the project has the IPv4 add-on, so from a server without IPv6 it resolves to nothing
// or to an address no route reaches. Its poolers (*.pooler.supabase.com) cannot carry logical
// replication at all, so a pooler host is refused before connecting, naming the direct host.
import { isIPv6 } from 'node:net'
import type { DatabaseTarget } from '../../shared/postgres-url.ts'
import { findPooler } from './pooler.ts'

const DIRECT_HOST = /^db\.[a-z0-9]+\.supabase\.co\.?$/i

// What a socket says when there is no path to the address (as opposed to a refusal at the
// other end, which proves the address reachable).
const NO_ROUTE = new Set([
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'EAFNOSUPPORT',
  'ETIMEDOUT',
])

/** The refusal of a Supabase pooler host, or null for any other host. */
export function supabasePoolerRefusal(target: DatabaseTarget): string | null {
  if (!target.host.toLowerCase().endsWith('.pooler.supabase.com')) return null
  const direct =
    findPooler(target).suggested_direct_host ?? 'db.<project ref>.supabase.co'
  return `Supabase's connection pooler cannot carry logical replication. Use the project's direct host ${direct} on port 5432 instead.`
}

const ipv6Message = (host: string) =>
  `The Supabase host ${host} has no address this server can reach: Supabase's direct database host is IPv6-only unless the project has the IPv4 add-on. Enable the IPv4 add-on in the project's settings, or run Sluice where IPv6 works.`

/** For an unresolved host: the IPv6 explanation when it is a Supabase direct host. */
export function supabaseUnresolved(host: string): string | null {
  return DIRECT_HOST.test(host) ? ipv6Message(host) : null
}

/** For a failed connection: the IPv6 explanation when nothing routes to the direct host. */
export function supabaseUnreachable(
  host: string,
  address: string,
  error: unknown,
): string | null {
  if (!DIRECT_HOST.test(host) || !isIPv6(address)) return null
  const code = (error as { code?: unknown }).code
  const message = error instanceof Error ? error.message : ''
  const noRoute =
    (typeof code === 'string' && NO_ROUTE.has(code)) ||
    /connection timeout/i.test(message)
  return noRoute ? ipv6Message(host) : null
}
