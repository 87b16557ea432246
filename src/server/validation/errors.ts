// What a failed connection tells the visitor. Network failures all read alike, so the endpoint
// cannot tell a closed port from a filtered one. Every text is ours, filled in only with the
// parsed URL's host, port, user, database and sslmode and the error's code: what the driver
// or the server said is read to pick a text, never repeated, so it cannot leak the password.
import { isSqlState, isTlsFailure } from './sqlstate.ts'
import type { DatabaseTarget } from '../../shared/postgres-url.ts'

export type ConnectionKind = 'normal' | 'replication'

/** A short description of why a connection or query failed. */
export function describeConnectionError(
  error: unknown,
  target: DatabaseTarget,
  kind: ConnectionKind,
): string {
  const { user, database } = target
  const code = (error as { code?: unknown }).code
  const message = error instanceof Error ? error.message : ''
  switch (code) {
    case '28P01':
      return `Password authentication failed for user "${user}".`
    case '28000':
      return kind === 'replication'
        ? `The server does not accept replication connections for user "${user}" (check pg_hba.conf, and use a direct connection rather than a pooler).`
        : `The server refused the login of user "${user}" (check pg_hba.conf and sslmode).`
    case '3D000':
      return `Database "${database}" does not exist.`
    case '42501':
      return kind === 'replication'
        ? `User "${user}" may not open a replication connection: it needs the REPLICATION attribute.`
        : `Permission denied for user "${user}".`
    case '53300':
      return 'The server has too many connections.'
    case '57P03':
      return 'The server is starting up or shutting down.'
  }
  if (typeof code === 'string' && isSqlState(code))
    return `The server refused the ${kind === 'replication' ? 'replication ' : ''}connection (SQLSTATE ${code}).`
  if (isTlsFailure(code))
    return `The server's TLS certificate could not be verified (sslmode=${target.sslmode}).`
  if (/does not support SSL/i.test(message))
    return 'The server does not accept SSL connections; use sslmode=disable or prefer.'
  if (/password must be a non-empty string/i.test(message))
    return 'The server asks for a password and the URL has none.'
  if (/Query read timeout/i.test(message))
    return `The server did not answer within 5 seconds.`
  if (kind === 'replication')
    return 'The replication connection failed: use a direct connection to Postgres, not a pooler or proxy.'
  return `Could not reach a Postgres server at ${target.host}:${target.port}.`
}
