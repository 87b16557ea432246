// When the second provider's validation can be fixed from Sluice: connected, allowed to
// replicate and create, and only the WAL level wrong. Enabling Neon's logical replication sets
// wal_level=logical; any other failure it would not fix, so it is not offered then.
import type { DatabaseValidation } from '../../../shared/validation.ts'

export function onlyWalLevelFails(v: DatabaseValidation): boolean {
  return (
    v.can_connect &&
    v.has_replication_permissions &&
    v.has_create_privilege &&
    !v.has_logical_wal
  )
}
