// Known connection-pooler hosts, and the direct host that can carry replication instead.
import type { DatabaseTarget } from '../../shared/postgres-url.ts'

export type PoolerFinding = {
  pooler_host: boolean
  suggested_direct_host: string | null
}

const POOLER_PORTS = new Set([6432, 6543]) // PgBouncer's and Supabase's transaction pooler

export function findPooler(target: DatabaseTarget): PoolerFinding {
  const { host, user, port } = target
  // Supavisor: aws-0-<region>.pooler.supabase.com, user postgres.<project ref>.
  if (host.endsWith('.pooler.supabase.com')) {
    const ref = /^[^.]+\.([a-z0-9]+)$/.exec(user)?.[1]
    return {
      pooler_host: true,
      suggested_direct_host: ref ? `db.${ref}.supabase.co` : null,
    }
  }
  // Neon: ep-<name>-pooler.<region>.aws.neon.tech; the direct host drops "-pooler".
  const [first = '', ...rest] = host.split('.')
  if (host.endsWith('.neon.tech') && first.endsWith('-pooler'))
    return {
      pooler_host: true,
      suggested_direct_host: [first.slice(0, -'-pooler'.length), ...rest].join(
        '.',
      ),
    }
  const looksPooled =
    POOLER_PORTS.has(port) || /(^|[.-])(pooler|pgbouncer)([.-]|$)/.test(host)
  return { pooler_host: looksPooled, suggested_direct_host: null }
}
