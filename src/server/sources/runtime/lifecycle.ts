// A source's lifecycle as users see it: what the replication supervisor reports (status,
// slot made, a failed removal) becomes a source state, a reason a user can act on, and exactly
// one event. Pure: the runtime feeds it the current state and writes what it answers.
import { SOURCE_EVENTS, type SourceEventName } from '../../../shared/sources.ts'
import {
  ADDRESS_REFUSED,
  type SupervisorStatus,
} from '../../../engine/index.ts'
import { isSqlState, isTlsFailure } from '../../validation/sqlstate.ts'

export type SourceSnapshot = {
  state: string
  reason: string | null
  /**
   * Replication has reached active for this source before. Unset: any state but
   * 'initializing' says so (a source read back from the table).
   */
  started?: boolean
}

/**
 * An error as the supervisor or a driver reports it: SQLSTATE or Node code, and message.
 * `own`: Sluice wrote the message for users (it is shown as it is).
 * `withheld`: the message holds the source's password (a database or role named like it), so
 * it is only read to pick a text, never quoted.
 */
export type Problem = {
  code?: string
  message: string
  own?: boolean
  withheld?: boolean
}

export type LifecycleSignal =
  | { kind: 'status'; status: SupervisorStatus; problem?: Problem }
  | { kind: 'slot-made'; cause: 'missing' | 'lost' }
  /** Statements the engine ran on the database (supervisor.ts onAltered). */
  | { kind: 'altered'; statements: string[] }
  | { kind: 'delete-failed'; problem: Problem }
  /** The runtime cannot start the source at all (e.g. its password does not decrypt). */
  | { kind: 'unusable'; reason: string }

export type SourceContext = {
  slot: string
  publication: string
  /** The role in the connection URL, named in fixes. */
  role?: string
}

export type Transition = SourceSnapshot & {
  event: { name: SourceEventName; details: Record<string, unknown> }
}

// One text for every network failure: a closed port, a filtered one, a host that never answers
// and a port speaking another protocol must read alike, and socket errors name addresses.
const UNREACHABLE =
  'The database server cannot be reached, or it closed the connection. Check that it is running and accepts connections.'
const UNVERIFIED_TLS =
  "The database server's TLS certificate could not be verified. Check the URL's sslmode."
const NO_TLS =
  'The database server does not accept SSL connections. Add the source again with sslmode=disable or prefer.'
const REFUSED_ADDRESS =
  "The database host resolves to an address Sluice may not connect to. Use a host name that resolves to the database server's public address."

/** Fixed words for a failure that came from the network or the driver, not from Postgres. */
function describeConnectionFailure({ code, message, own }: Problem): string {
  if (own) return message
  // Our own disk, not the user's database: said as such, never as the database unreachable.
  if (code === 'ENOSPC' || code === 'EDQUOT') return STORAGE_FULL
  if (code === 'EIO' || code === 'EROFS') return STORAGE_FAILED
  if (code === ADDRESS_REFUSED) return REFUSED_ADDRESS
  if (isTlsFailure(code)) return UNVERIFIED_TLS
  if (/does not support SSL/i.test(message)) return NO_TLS
  return UNREACHABLE
}

const STORAGE_FULL =
  "Sluice's disk for this source's shapes is full. Changes wait in the replication slot and stream again once space is freed; nothing is lost."
const STORAGE_FAILED =
  "Sluice could not write this source's shapes to its disk. Changes wait in the replication slot and stream again once it can."

const quoteRole = (role: string) => `"${role.replace(/"/g, '""')}"`

function needsReplication(role: string | undefined): string {
  const who = role ? `Role ${quoteRole(role)}` : 'The role'
  const fix = role
    ? ` Run as a superuser: ALTER ROLE ${quoteRole(role)} WITH REPLICATION;`
    : ''
  return `${who} lacks the REPLICATION attribute, so changes cannot be streamed.${fix}`
}

const GRANT =
  'Grant the role what replication needs (REPLICATION and CREATE on the database).'

/** What Postgres said, in parentheses after our words, unless it must not be shown. */
const quoted = ({ message, withheld }: Problem) =>
  withheld ? '' : ` (${message})`

/**
 * Words a user can act on for a problem; never more than Postgres said. What the network or
 * the driver said is never repeated (see describeConnectionFailure), nor what Postgres said
 * when it holds the password: then our words stand alone.
 */
export function describeProblem(problem: Problem, role?: string): string {
  const { code, message } = problem
  if (!isSqlState(code)) return describeConnectionFailure(problem)
  if (/WAL sender|walsender|replication role/i.test(message))
    return needsReplication(role)
  switch (code) {
    case '42501':
      if (problem.withheld) return `Permission denied. ${GRANT}`
      if (message.startsWith('Role ')) return message
      return `Permission denied: ${message}. ${GRANT}`
    case '55000':
      if (/wal_level/i.test(message))
        return 'wal_level is no longer logical on the database server. Set wal_level = logical and restart Postgres.'
      return `The replication slot can no longer be used${quoted(problem)}.`
    case '28P01':
      return 'Authentication failed: the database no longer accepts the user and password this source was added with. Delete the source and add it again with the current credentials.'
    case '28000':
      return `The database server refused the connection${quoted(problem)}. Check pg_hba.conf allows this role, including replication connections.`
    case '3D000':
      return 'The database no longer exists on the server.'
    case '57P01':
    case '57P02':
    case '57P03':
      return `The database server closed the connection${quoted(problem)}.`
  }
  return problem.withheld
    ? `The database server reported an error (SQLSTATE ${code}).`
    : message
}

const to = (
  state: string,
  reason: string | null,
  name: SourceEventName,
  details: Record<string, unknown>,
): Transition => ({ state, reason, event: { name, details } })

/** The change a signal makes, or null when it changes nothing (nothing is written then). */
export function transition(
  current: SourceSnapshot,
  signal: LifecycleSignal,
  context: SourceContext,
): Transition | null {
  switch (signal.kind) {
    case 'status':
      return statusTransition(current, signal.status, signal.problem, context)
    case 'slot-made':
      // Not a change of state, but worth a line in the log: shapes start over after a loss. A
      // new source whose first try failed (reconnecting) and then made its slot made it anew.
      return !(current.started ?? current.state !== 'initializing')
        ? to(current.state, current.reason, SOURCE_EVENTS.slotCreated, {
            slot: context.slot,
            publication: context.publication,
          })
        : to(current.state, current.reason, SOURCE_EVENTS.slotRecreated, {
            slot: context.slot,
            reason: signal.cause,
          })
    case 'altered':
      return to(current.state, current.reason, SOURCE_EVENTS.databaseAltered, {
        statements: signal.statements,
      })
    case 'delete-failed': {
      const reason =
        `The replication slot and publication could not be removed from the database: ` +
        `${describeProblem(signal.problem, context.role)} Forget the source to remove only ` +
        `its record, then drop the slot ${context.slot} and the publication yourself.`
      if (current.state === 'error' && current.reason === reason) return null
      return to('error', reason, SOURCE_EVENTS.deleteFailed, { reason })
    }
    case 'unusable':
      if (current.state === 'error' && current.reason === signal.reason)
        return null
      return to('error', signal.reason, SOURCE_EVENTS.error, {
        reason: signal.reason,
      })
  }
}

function statusTransition(
  current: SourceSnapshot,
  status: SupervisorStatus,
  problem: Problem | undefined,
  context: SourceContext,
): Transition | null {
  if (status === 'active')
    return current.state === 'active'
      ? null
      : to('active', null, SOURCE_EVENTS.active, { slot: context.slot })
  if (status !== 'reconnecting' && status !== 'error') return null
  const reason = problem
    ? describeProblem(problem, context.role)
    : 'Replication stopped.'
  // Retries of a lost connection report varied errors: one event per outage is enough.
  if (current.state === 'reconnecting' && status === 'reconnecting') return null
  if (
    current.state === 'error' &&
    status === 'error' &&
    current.reason === reason
  )
    return null
  return status === 'error'
    ? to('error', reason, SOURCE_EVENTS.error, { reason })
    : to('reconnecting', reason, SOURCE_EVENTS.reconnecting, { reason })
}
