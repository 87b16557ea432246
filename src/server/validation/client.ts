// Opens a pg.Client for a check from an explicit config only. `pg` fills every missing or empty
// setting from the server's own environment (PGPASSWORD, PGUSER, PGOPTIONS, PGSSLMODE, ...) and
// falls back to ~/.pgpass; none of that may reach a visitor's database.
import { isIP } from 'node:net'
import type { ConnectionOptions } from 'node:tls'
import pg from 'pg'
import type { DatabaseTarget, SslMode } from '../../shared/postgres-url.ts'

const CONNECT_TIMEOUT_MS = 5_000
const STATEMENT_TIMEOUT_MS = 5_000

type Ssl = false | ConnectionOptions

// `sslnegotiation` and `replication` are read by pg 8.23 but missing from @types/pg.
type ExplicitConfig = pg.ClientConfig & {
  sslnegotiation: 'postgres'
  replication?: 'database'
}

function tlsOptions(target: DatabaseTarget, verify: 'none' | 'ca' | 'full') {
  const options: ConnectionOptions = { rejectUnauthorized: verify !== 'none' }
  // We connect to the pinned address; the certificate and SNI still use the name typed.
  if (isIP(target.host) === 0) options.servername = target.host
  if (verify === 'ca') options.checkServerIdentity = () => undefined
  return options
}

/** The TLS settings to try, in order, for an sslmode (pg has no built-in fallback). */
export function sslAttempts(target: DatabaseTarget): Ssl[] {
  const modes: Record<SslMode, Ssl[]> = {
    disable: [false],
    allow: [false, tlsOptions(target, 'none')],
    prefer: [tlsOptions(target, 'none'), false],
    require: [tlsOptions(target, 'none')],
    'verify-ca': [tlsOptions(target, 'ca')],
    'verify-full': [tlsOptions(target, 'full')],
  }
  return modes[target.sslmode]
}

export function clientConfig(
  target: DatabaseTarget,
  address: string,
  ssl: Ssl,
  replication: boolean,
): ExplicitConfig {
  const config: ExplicitConfig = {
    host: address,
    port: target.port,
    user: target.user,
    database: target.database,
    // A function, because pg treats '' as "unset" and would read PGPASSWORD or ~/.pgpass.
    password: () => target.password,
    ssl,
    sslnegotiation: 'postgres',
    enableChannelBinding: target.channelBinding === 'require',
    application_name: 'sluice-readiness-check',
    client_encoding: 'UTF8',
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // Client-side: a statement_timeout startup parameter would make poolers refuse the login.
    query_timeout: STATEMENT_TIMEOUT_MS,
  }
  if (replication) config.replication = 'database'
  return config
}

type Parameters = { options?: string; replication?: string }

/** A client whose env-derived leftovers (PGOPTIONS, PGREPLICATION) are cleared. */
export function createClient(config: ExplicitConfig): pg.Client {
  const client = new pg.Client(config)
  // pg has no explicit "none" for these two: an unset value reads the environment at
  // construction, and the startup message is built from these fields at connect time.
  const parameters = (client as unknown as { connectionParameters: Parameters })
    .connectionParameters
  parameters.options = undefined
  parameters.replication = config.replication
  return client
}
