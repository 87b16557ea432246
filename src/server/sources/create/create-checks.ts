// What a pasted URL must pass before it becomes a source: it parses, its host is one the
// server may reach (always, even when the readiness check is skipped: a source is a standing
// order to connect, and must not point the server at its own network), and unless skipped the
// database is ready for the sync engine.
import { isReady, type DatabaseValidation } from '../../../shared/validation.ts'
import { checkDatabase } from '../../validation/check.ts'
import {
  pinAddress,
  RefusedTargetError,
  UnresolvedHostError,
  type Resolver,
} from '../../validation/guard.ts'
import { DatabaseUrlError } from '../../../shared/postgres-url.ts'
import { parseSourceUrl, type SourceAddress } from './database-url.ts'

export type CheckSettings = {
  /** env.allowPrivateDatabaseTargets, exactly as the public readiness check reads it. */
  allowPrivate: boolean
  resolve: Resolver
}

export type Checked =
  { ok: true; address: SourceAddress } | { ok: false; message: string }

/** Parses the URL and refuses hosts the guard forbids; no connection is made. */
export async function guardSourceUrl(
  input: string,
  settings: CheckSettings,
): Promise<Checked> {
  try {
    const address = parseSourceUrl(input)
    await pinAddress(address.target.host, settings)
    return { ok: true, address }
  } catch (error) {
    if (
      error instanceof DatabaseUrlError ||
      error instanceof RefusedTargetError ||
      error instanceof UnresolvedHostError
    )
      return { ok: false, message: error.message }
    throw error
  }
}

/** The readiness check of POST /api/public/validate-pg-database-url, as one message. */
export async function checkSourceReady(
  address: SourceAddress,
  input: string,
  settings: CheckSettings,
): Promise<Checked> {
  try {
    const result = await checkDatabase(input, settings)
    if (isReady(result)) return { ok: true, address }
    return { ok: false, message: notReadyMessage(result, address) }
  } catch (error) {
    // The guard above already passed; a name may resolve elsewhere the second time.
    if (
      error instanceof RefusedTargetError ||
      error instanceof DatabaseUrlError
    )
      return { ok: false, message: error.message }
    throw error
  }
}

/**
 * Names everything missing, in the order a user fixes it. The connection errors come from
 * describeConnectionError, which never repeats the password.
 */
function notReadyMessage(
  result: DatabaseValidation,
  { target }: SourceAddress,
): string {
  if (!result.can_connect_without_replication)
    return `Could not connect to the database: ${result.connection_error ?? 'no reason was given.'}`
  const problems: string[] = []
  if (!result.has_replication_permissions)
    problems.push(`the user "${target.user}" lacks the REPLICATION attribute`)
  else if (!result.can_connect && result.connection_error)
    problems.push(result.connection_error.replace(/\.$/, ''))
  if (!result.has_logical_wal)
    problems.push(
      "wal_level is not 'logical' (set wal_level = logical and restart Postgres)",
    )
  if (!result.has_create_privilege)
    problems.push(
      `the user "${target.user}" lacks the CREATE privilege on database "${target.database}"`,
    )
  if (problems.length === 0) problems.push('the replication connection failed')
  return `The database is not ready: ${problems.join('; ')}.`
}
