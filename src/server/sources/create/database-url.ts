// What a source keeps of the URL a user pasted: the URL without its password (the password is
// sealed beside it), and the key that says two URLs name the same database.
import {
  parseDatabaseUrl,
  type DatabaseTarget,
} from '../../../shared/postgres-url.ts'

export type SourceAddress = {
  /** The parsed URL, password included: it goes no further than sealing and the check. */
  target: DatabaseTarget
  /** postgresql://user@host:port/database?sslmode=..., never a password. */
  connectionUrl: string
  /** host:port/name, lower-cased host: one source per database, team and region. */
  databaseKey: string
}

const KEPT_PARAMETERS = ['sslmode', 'channel_binding'] as const

/** IPv6 addresses go in brackets in a URL authority and in the key (host:port stays readable). */
function authorityHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host
}

/**
 * host:port/name. The host is lower-cased (names are case-insensitive); the database name is
 * not (Postgres tells "Sales" and "sales" apart). The port is always written, 5432 included.
 */
function databaseKey(target: DatabaseTarget): string {
  const host = authorityHost(target.host.toLowerCase())
  return `${host}:${target.port}/${target.database}`
}

/**
 * The URL without the password. User and database are written percent-encoded, the database
 * even when the URL left it to default to the user's name, and only the connection parameters
 * the user gave are kept, with the values the parser accepted.
 */
function connectionUrlWithoutPassword(
  target: DatabaseTarget,
  given: URLSearchParams,
): string {
  const user = encodeURIComponent(target.user)
  const database = encodeURIComponent(target.database)
  const values = {
    sslmode: target.sslmode,
    channel_binding: target.channelBinding,
  }
  const params = new URLSearchParams()
  for (const name of KEPT_PARAMETERS)
    if (given.has(name)) params.set(name, values[name])
  const query = params.size > 0 ? `?${params.toString()}` : ''
  return `postgresql://${user}@${authorityHost(target.host)}:${target.port}/${database}${query}`
}

/** Parses a pasted URL; throws DatabaseUrlError (its message is safe to show) when it is bad. */
export function parseSourceUrl(input: string): SourceAddress {
  const target = parseDatabaseUrl(input)
  // parseDatabaseUrl accepted the same text, so the URL parser does too.
  const given = new URL(input.trim()).searchParams
  return {
    target,
    connectionUrl: connectionUrlWithoutPassword(target, given),
    databaseKey: databaseKey(target),
  }
}
