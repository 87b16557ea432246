// What the results panel says about each check (its status and description) and which
// block it shows, as pure functions so every branch is tested without a DOM.
import { isReady, type DatabaseValidation } from '../../../shared/validation.ts'

export type CheckStatus = 'success' | 'error' | 'unknown'
export type CheckRow = {
  label: string
  status: CheckStatus
  description: string
}

const UNKNOWN_DESCRIPTION = 'Unknown - cannot check until connected'
// The server sends connection_error whenever a connection fails; this covers an answer without.
const CONNECTION_ERROR_FALLBACK = 'Could not connect to database'

/** Success if true; otherwise error when `checkable`, unknown when nothing connected. */
export function checkStatus(passed: boolean, checkable: boolean): CheckStatus {
  if (passed) return 'success'
  return checkable ? 'error' : 'unknown'
}

function row(
  label: string,
  status: CheckStatus,
  texts: { success: string; error: string },
): CheckRow {
  const description = status === 'unknown' ? UNKNOWN_DESCRIPTION : texts[status]
  return { label, status, description }
}

export type CheckStatuses = Record<
  'connection' | 'replication' | 'create' | 'wal',
  CheckStatus
>

export function checkStatuses(v: DatabaseValidation): CheckStatuses {
  // Replication and WAL are read over a normal connection, so they are known as soon as that
  // one works; CREATE is judged only once the connection row itself succeeded.
  const normal = v.can_connect_without_replication
  return {
    connection: v.can_connect ? 'success' : 'error',
    replication: checkStatus(v.has_replication_permissions, normal),
    create: checkStatus(v.has_create_privilege, v.can_connect),
    wal: checkStatus(v.has_logical_wal, normal),
  }
}

export function checkRows(v: DatabaseValidation): CheckRow[] {
  const status = checkStatuses(v)
  return [
    row('Connection', status.connection, {
      success: 'Successfully connected to database',
      error: v.connection_error || CONNECTION_ERROR_FALLBACK,
    }),
    row('Replication Permissions', status.replication, {
      success: 'User has replication permissions',
      error: 'User does not have replication permissions',
    }),
    row('CREATE Privilege', status.create, {
      success: 'User has CREATE privilege',
      error: 'User does not have CREATE privilege',
    }),
    row('WAL Level', status.wal, {
      success: 'WAL level is set to logical',
      error: 'WAL level is not set to logical',
    }),
  ]
}

/**
 * The panel's verdict: ready; nothing connected; a normal connection but no replication one
 * ("replication mode"); or connected with something missing.
 */
export type PanelVerdict =
  'ready' | 'unreachable' | 'replication-refused' | 'needs-fixes'

export function panelVerdict(v: DatabaseValidation): PanelVerdict {
  if (isReady(v)) return 'ready'
  if (!v.can_connect && !v.can_connect_without_replication) return 'unreachable'
  if (!v.can_connect) return 'replication-refused'
  return 'needs-fixes'
}
