// checkDatabase: is this Postgres ready for the sync engine? One pass runs every check (a
// normal connection, a replication connection, one catalog query) and reports all of them.
import type pg from 'pg'
import {
  unreachableValidation,
  type DatabaseValidation,
  type ValidationDiagnostics,
} from '../../shared/validation.ts'
import { DeadlineError, withConnection } from './connect.ts'
import { describeConnectionError } from './errors.ts'
import {
  pinAddress,
  systemResolver,
  UnresolvedHostError,
  type Resolver,
} from './guard.ts'
import {
  parseDatabaseUrl,
  type DatabaseTarget,
} from '../../shared/postgres-url.ts'
import { findPooler } from './pooler.ts'
import {
  supabasePoolerRefusal,
  supabaseUnreachable,
  supabaseUnresolved,
} from './supabase-host.ts'

const CHECK_TIMEOUT_MS = 10_000

export type CheckOptions = {
  /** Loopback and private targets (env ALLOW_PRIVATE_DATABASE_TARGETS). */
  allowPrivate: boolean
  resolve?: Resolver
  /** The whole check's limit; tests shorten it. */
  timeoutMs?: number
}

const CATALOG_QUERY = `
SELECT current_setting('wal_level')                  AS wal_level,
       current_setting('max_replication_slots')::int AS max_replication_slots,
       (SELECT count(*)::int FROM pg_replication_slots) AS used_replication_slots,
       current_setting('max_wal_senders')::int       AS max_wal_senders,
       r.rolsuper, r.rolreplication,
       CASE WHEN to_regrole('rds_replication') IS NOT NULL
            THEN pg_has_role(current_user, 'rds_replication', 'MEMBER')
            ELSE false END                           AS rds_replication_member,
       has_database_privilege(current_database(), 'CREATE') AS has_create_privilege,
       pg_is_in_recovery()                           AS is_replica,
       current_setting('server_version_num')::int    AS server_version_num
FROM pg_roles r WHERE r.rolname = current_user`

type Catalog = {
  wal_level: string
  max_replication_slots: number
  used_replication_slots: number
  max_wal_senders: number
  rolsuper: boolean
  rolreplication: boolean
  rds_replication_member: boolean
  has_create_privilege: boolean
  is_replica: boolean
  server_version_num: number
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown }

async function outcome<T>(run: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await run() }
  } catch (error) {
    return { ok: false, error }
  }
}

async function readCatalog(client: pg.Client): Promise<Catalog | undefined> {
  await client.query('SELECT 1')
  const { rows } = await client.query<Catalog>(CATALOG_QUERY)
  return rows[0]
}

function diagnostics(
  target: DatabaseTarget,
  catalog: Catalog | undefined,
): ValidationDiagnostics {
  return {
    free_replication_slots: catalog
      ? catalog.max_replication_slots - catalog.used_replication_slots
      : null,
    max_wal_senders: catalog?.max_wal_senders ?? null,
    is_read_replica: catalog?.is_replica ?? null,
    ...findPooler(target),
    server_version_num: catalog?.server_version_num ?? null,
    user: target.user,
    database: target.database,
  }
}

/** `message` is ours (it names at most the host): shown as it is. */
function failure(target: DatabaseTarget, message: string): DatabaseValidation {
  return {
    ...unreachableValidation(message),
    diagnostics: diagnostics(target, undefined),
  }
}

function describe(
  error: unknown,
  target: DatabaseTarget,
  kind: 'normal' | 'replication',
  timeoutMs: number,
) {
  if (error instanceof DeadlineError)
    return `The check took longer than ${timeoutMs / 1000} seconds.`
  return describeConnectionError(error, target, kind)
}

/**
 * Runs the readiness checks against a visitor's URL. Throws DatabaseUrlError or
 * RefusedTargetError (bad input, a 400); every other failure is a result with flags false.
 */
export async function checkDatabase(
  url: string,
  options: CheckOptions,
): Promise<DatabaseValidation> {
  const target = parseDatabaseUrl(url)
  const refusal = supabasePoolerRefusal(target)
  if (refusal) return failure(target, refusal)
  let address: string
  try {
    address = await pinAddress(target.host, {
      resolve: options.resolve ?? systemResolver,
      allowPrivate: options.allowPrivate,
    })
  } catch (error) {
    if (error instanceof UnresolvedHostError)
      return failure(target, supabaseUnresolved(target.host) ?? error.message)
    throw error
  }

  const timeoutMs = options.timeoutMs ?? CHECK_TIMEOUT_MS
  const deadline = new AbortController()
  const timer = setTimeout(() => deadline.abort(), timeoutMs)
  const [normal, replication] = await Promise.all([
    outcome(() =>
      withConnection(target, address, false, deadline.signal, readCatalog),
    ),
    outcome(() =>
      withConnection(target, address, true, deadline.signal, (client) =>
        client.query('IDENTIFY_SYSTEM'),
      ),
    ),
  ]).finally(() => clearTimeout(timer))

  const catalog = normal.ok ? normal.value : undefined
  const result: DatabaseValidation = {
    has_replication_permissions: catalog
      ? catalog.rolsuper ||
        catalog.rolreplication ||
        catalog.rds_replication_member
      : false,
    has_logical_wal: catalog?.wal_level === 'logical',
    can_connect: replication.ok,
    can_connect_without_replication: normal.ok,
    has_create_privilege: catalog?.has_create_privilege ?? false,
    diagnostics: diagnostics(target, catalog),
  }
  // The normal connection's failure explains more (password, database); the replication
  // one matters when only it failed.
  if (!normal.ok)
    result.connection_error =
      supabaseUnreachable(target.host, address, normal.error) ??
      describe(normal.error, target, 'normal', timeoutMs)
  else if (!replication.ok)
    result.connection_error = describe(
      replication.error,
      target,
      'replication',
      timeoutMs,
    )
  return result
}
