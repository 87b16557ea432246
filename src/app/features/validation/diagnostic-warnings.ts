// The server's extra findings beyond the readiness flags, as warnings for the results panel.
import type { ValidationDiagnostics } from '../../../shared/validation.ts'

// One walsender per replication connection; with fewer than two, the sync engine's slot and any
// backup or standby compete for the only one.
const LOW_MAX_WAL_SENDERS = 2

export function diagnosticWarnings(
  d: ValidationDiagnostics | undefined,
): string[] {
  if (!d) return []
  const warnings: string[] = []
  if (d.free_replication_slots === 0)
    warnings.push(
      'No free replication slots: every slot allowed by max_replication_slots is in use. Drop an unused slot or raise max_replication_slots.',
    )
  if (d.max_wal_senders !== null && d.max_wal_senders < LOW_MAX_WAL_SENDERS)
    warnings.push(
      `max_wal_senders is ${d.max_wal_senders}; the sync engine needs a free WAL sender of its own. Raise max_wal_senders and restart the server.`,
    )
  if (d.is_read_replica)
    warnings.push(
      'This server is a read replica; logical replication needs the primary. Use the primary\u2019s URL.',
    )
  if (d.pooler_host)
    warnings.push(
      d.suggested_direct_host
        ? `This host looks like a connection pooler; replication needs a direct connection. Use ${d.suggested_direct_host} instead.`
        : 'This host looks like a connection pooler; replication needs a direct connection to the database.',
    )
  return warnings
}
