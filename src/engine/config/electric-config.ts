// The standalone engine's settings from its environment, read under Electric's names, with
// Electric's defaults and units, so an Electric deployment's environment carries over; its
// command-line flags win over the environment. Pure: it answers the settings or every bad
// variable by name, and the notices to print (variables the engine does not implement).
import { CACHE_MAX_AGE, CACHE_STALE_AGE } from '../http/answer-headers.ts'
import {
  DEFAULT_MAX_CONCURRENT_REQUESTS,
  type MaxConcurrentRequests,
} from '../http/admission.ts'
import { MAX_STREAM_ID_LENGTH } from '../replication/names.ts'
import {
  connectionString,
  readDatabaseUrl,
  sslDisabled,
} from './database-urls.ts'
import {
  readBoolean,
  readCounts,
  readDuration,
  readInteger,
  type Read,
} from './env-values.ts'

export type Env = Readonly<Record<string, string | undefined>>

/** The command line's options, as parseArgs gives them (unset: undefined). */
export type EngineFlags = {
  port?: string
  host?: string
  allowShapeDeletion?: boolean
  chunkBytes?: string
  dataDir?: string
}

export type EngineConfig = {
  /** The replication connection's, and setup's (slot, publication). */
  databaseUrl: string
  /** Every other connection's: snapshots, catalog reads (ELECTRIC_POOLED_DATABASE_URL). */
  poolUrl: string
  poolSize: number
  /** ELECTRIC_DATABASE_CA_CERTIFICATE_FILE, already in both URLs as `sslrootcert`. */
  caCertificateFile: string | undefined
  preferIpv6: boolean
  secret: string | undefined
  insecure: boolean
  port: number
  host: string
  storageDir: string
  /** Electric's slot and publication names; null: the engine's own, one per database. */
  replicationStreamId: string | null
  manualTablePublishing: boolean
  allowShapeDeletion: boolean
  /** Undefined: the engine's default, Electric's (10 MiB, 20 s). */
  chunkBytes: number | undefined
  longPollMs: number | undefined
  /** Seconds. */
  cacheMaxAge: number
  cacheStaleAge: number
  maxShapes: number | undefined
  maxConcurrentRequests: MaxConcurrentRequests
  /** 0: never let the replication connection go. */
  replicationIdleTimeoutMs: number
  metrics: { port: number; host: string } | null
}

export type ConfigRead =
  | { ok: true; config: EngineConfig; notices: string[] }
  | { ok: false; errors: string[] }

// Electric's defaults (lib/electric/config.ex), where the engine has the same setting.
const DEFAULT_PORT = 3000
const DEFAULT_POOL_SIZE = 20
/** Electric refuses a shorter idle timeout: reconnecting more often would only churn. */
const MIN_IDLE_TIMEOUT_MS = 30_000
/**
 * Not Electric's ./persistent: engines before these variables kept their logs here, and a
 * new default would leave those behind (and mix the engine's files with an Electric's).
 */
const DEFAULT_STORAGE_DIR = './.sluice-engine'
/** Another part of the engine cuts chunks no finer than this. */
const MIN_CHUNK_BYTES = 10_000
const MAX_CHUNK_BYTES = 1024 * 1024 * 1024
const HOUR_MS = 3_600_000
const YEAR_SECONDS = 31_536_000

/** Every variable this module reads, besides DATABASE_URL and ELECTRIC_SECRET (cli.ts). */
const READ = [
  'ELECTRIC_INSECURE',
  'ELECTRIC_PORT',
  'ELECTRIC_LISTEN_ON_IPV6',
  'ELECTRIC_STORAGE_DIR',
  'ELECTRIC_REPLICATION_STREAM_ID',
  'ELECTRIC_MANUAL_TABLE_PUBLISHING',
  'ELECTRIC_POOLED_DATABASE_URL',
  'ELECTRIC_QUERY_DATABASE_URL',
  'ELECTRIC_DB_POOL_SIZE',
  'ELECTRIC_DATABASE_CA_CERTIFICATE_FILE',
  'ELECTRIC_DATABASE_USE_IPV6',
  'ELECTRIC_CACHE_MAX_AGE',
  'ELECTRIC_CACHE_STALE_AGE',
  'ELECTRIC_SHAPE_CHUNK_BYTES_THRESHOLD',
  'ELECTRIC_LONG_POLL_TIMEOUT',
  'ELECTRIC_MAX_SHAPES',
  'ELECTRIC_EXPERIMENTAL_MAX_SHAPES',
  'ELECTRIC_MAX_CONCURRENT_REQUESTS',
  'ELECTRIC_REPLICATION_IDLE_TIMEOUT',
  'ELECTRIC_PROMETHEUS_PORT',
  'ELECTRIC_ENABLE_INTEGRATION_TESTING',
  'METRICS_PORT',
  'METRICS_HOST',
] as const
type Name = (typeof READ)[number]

/** Electric's names read elsewhere (cli.ts), so not reported as unimplemented. */
const READ_ELSEWHERE = new Set(['ELECTRIC_SECRET'])

/** Electric's variables without the ELECTRIC_ prefix, reported when set. */
const ELECTRIC_UNPREFIXED = ['CLEANUP_REPLICATION_SLOTS_ON_SHUTDOWN']

/** Implemented in part: said at start when set. */
const PARTLY: Partial<Record<Name, string>> = {
  ELECTRIC_PROMETHEUS_PORT:
    "Sluice's own metric names (docs/engine.md), on METRICS_HOST (loopback by default)",
}

/**
 * The settings from `env` and the flags. `databaseUrl` and `secret` are read already (from a
 * file, a flag or the environment: secret-option.ts).
 */
export function readEngineConfig(
  env: Env,
  flags: EngineFlags,
  given: { databaseUrl: string | undefined; secret: string | undefined },
): ConfigRead {
  const errors: string[] = []
  // Every variable is read, even one another overrides, so every bad one is named at once.
  const raw = Object.fromEntries(READ.map((name) => [name, env[name]]))
  /** The variable's value when set (an empty one counts as unset, as compose leaves them). */
  function value<T>(
    name: Name,
    read: (text: string) => Read<T>,
  ): T | undefined {
    const text = raw[name]
    if (text === undefined || text === '') return undefined
    const result = read(text)
    if (result.ok) return result.value
    errors.push(`${name} ${result.error}`)
    return undefined
  }
  function flag<T>(
    name: string,
    text: string | undefined,
    read: (text: string) => Read<T>,
  ): T | undefined {
    if (text === undefined) return undefined
    const result = read(text)
    if (result.ok) return result.value
    errors.push(`--${name} ${result.error}`)
    return undefined
  }
  const bool = (name: Name) => value(name, readBoolean) ?? false
  const port = (text: string) => readInteger(text, 0, 65535)
  const metricsPort = (text: string) => readInteger(text, 1, 65535)
  const chunkBytes = (text: string) =>
    readInteger(text, MIN_CHUNK_BYTES, MAX_CHUNK_BYTES, 'bytes')
  const seconds = (text: string) =>
    readInteger(text, 0, YEAR_SECONDS, 'seconds')
  const shapes = (text: string) => readInteger(text, 1, 10_000_000)

  const insecure = bool('ELECTRIC_INSECURE')
  const { secret } = given
  if (insecure && secret !== undefined)
    errors.push('give ELECTRIC_SECRET or ELECTRIC_INSECURE=true, not both')

  const caFile = value('ELECTRIC_DATABASE_CA_CERTIFICATE_FILE', readPath)
  const databaseUrl = readReplicationUrl(given.databaseUrl, errors)
  if (databaseUrl && caFile !== undefined && sslDisabled(databaseUrl))
    errors.push(
      'ELECTRIC_DATABASE_CA_CERTIFICATE_FILE is set, so sslmode in DATABASE_URL must be left out or other than disable',
    )
  // The older name is read too, as Electric still does; the newer wins.
  const pooled = value('ELECTRIC_POOLED_DATABASE_URL', readDatabaseUrl)
  const query = value('ELECTRIC_QUERY_DATABASE_URL', readDatabaseUrl)

  const prometheus = value('ELECTRIC_PROMETHEUS_PORT', metricsPort)
  const metrics = value('METRICS_PORT', metricsPort) ?? prometheus
  if (prometheus !== undefined && metrics !== prometheus)
    errors.push(
      'METRICS_PORT and ELECTRIC_PROMETHEUS_PORT name the same port: give one, or the same',
    )

  const idle = value('ELECTRIC_REPLICATION_IDLE_TIMEOUT', (text) =>
    readDuration(text, 24 * HOUR_MS),
  )
  if (idle !== undefined && idle > 0 && idle < MIN_IDLE_TIMEOUT_MS)
    errors.push(
      `ELECTRIC_REPLICATION_IDLE_TIMEOUT must be 0 (never) or at least ${MIN_IDLE_TIMEOUT_MS / 1000}s`,
    )
  const maxShapes = value('ELECTRIC_MAX_SHAPES', shapes)
  const experimentalMaxShapes = value(
    'ELECTRIC_EXPERIMENTAL_MAX_SHAPES',
    shapes,
  )
  const listenOnIpv6 = bool('ELECTRIC_LISTEN_ON_IPV6')
  const settings = {
    poolSize:
      value('ELECTRIC_DB_POOL_SIZE', (text) => readInteger(text, 1, 1000)) ??
      DEFAULT_POOL_SIZE,
    preferIpv6: bool('ELECTRIC_DATABASE_USE_IPV6'),
    secret,
    insecure,
    port:
      flag('port', flags.port, port) ??
      value('ELECTRIC_PORT', port) ??
      DEFAULT_PORT,
    host:
      flags.host ?? defaultHost(secret !== undefined || insecure, listenOnIpv6),
    storageDir:
      flags.dataDir ??
      value('ELECTRIC_STORAGE_DIR', readPath) ??
      DEFAULT_STORAGE_DIR,
    replicationStreamId:
      value('ELECTRIC_REPLICATION_STREAM_ID', readStreamId) ?? null,
    manualTablePublishing: bool('ELECTRIC_MANUAL_TABLE_PUBLISHING'),
    allowShapeDeletion:
      bool('ELECTRIC_ENABLE_INTEGRATION_TESTING') ||
      flags.allowShapeDeletion === true,
    chunkBytes:
      flag('chunk-bytes', flags.chunkBytes, chunkBytes) ??
      value('ELECTRIC_SHAPE_CHUNK_BYTES_THRESHOLD', chunkBytes),
    longPollMs: value('ELECTRIC_LONG_POLL_TIMEOUT', (text) =>
      readInteger(text, 1, HOUR_MS, 'milliseconds'),
    ),
    cacheMaxAge: value('ELECTRIC_CACHE_MAX_AGE', seconds) ?? CACHE_MAX_AGE,
    cacheStaleAge:
      value('ELECTRIC_CACHE_STALE_AGE', seconds) ?? CACHE_STALE_AGE,
    maxShapes: maxShapes ?? experimentalMaxShapes,
    maxConcurrentRequests:
      value('ELECTRIC_MAX_CONCURRENT_REQUESTS', (text) =>
        readCounts(text, DEFAULT_MAX_CONCURRENT_REQUESTS, 1_000_000),
      ) ?? DEFAULT_MAX_CONCURRENT_REQUESTS,
    replicationIdleTimeoutMs: idle ?? 0,
    metrics:
      metrics === undefined
        ? null
        : {
            port: metrics,
            host: value('METRICS_HOST', readHost) ?? '127.0.0.1',
          },
  }
  if (errors.length > 0 || !databaseUrl) return { ok: false, errors }
  const config: EngineConfig = {
    ...settings,
    caCertificateFile: caFile,
    databaseUrl: connectionString(databaseUrl, caFile),
    poolUrl: connectionString(pooled ?? query ?? databaseUrl, caFile),
  }
  return { ok: true, config, notices: notices(env, config) }
}

function readReplicationUrl(
  text: string | undefined,
  errors: string[],
): URL | undefined {
  if (text === undefined) {
    errors.push(
      'give the database as a postgres:// URL: --database-url-file PATH or DATABASE_URL (--help)',
    )
    return undefined
  }
  const read = readDatabaseUrl(text)
  if (read.ok) return read.value
  errors.push(`DATABASE_URL ${read.error}`)
  return undefined
}

const readPath = (text: string): Read<string> =>
  text.length > 4096
    ? { ok: false, error: 'is longer than 4096 characters' }
    : { ok: true, value: text }

const readHost = (text: string): Read<string> =>
  text.length > 253
    ? { ok: false, error: 'is longer than a host name can be' }
    : { ok: true, value: text }

/**
 * Electric listens on every interface. So does the engine once requests are guarded by a
 * secret, or the operator said ELECTRIC_INSECURE=true; with neither (where Electric refuses
 * to start) only loopback, so no one else can read every table the role can.
 */
function defaultHost(opened: boolean, ipv6: boolean): string {
  if (!opened) return '127.0.0.1'
  return ipv6 ? '::' : '0.0.0.0'
}

/** As Electric parses it: an unquoted identifier, lower-cased, short enough to name both. */
function readStreamId(text: string): Read<string> {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(text))
    return {
      ok: false,
      error:
        'must be an unquoted identifier: letters, digits and underscores, not starting with a digit',
    }
  if (text.length > MAX_STREAM_ID_LENGTH)
    return {
      ok: false,
      error: `must be at most ${MAX_STREAM_ID_LENGTH} characters (Postgres names are at most 63 bytes)`,
    }
  return { ok: true, value: text.toLowerCase() }
}

/**
 * What to say at start: the Electric variables set but not implemented (one line), each one
 * implemented in part, and how the engine is opened.
 */
function notices(env: Env, config: EngineConfig): string[] {
  const known = new Set<string>([...READ, ...READ_ELSEWHERE])
  const unimplemented = Object.keys(env)
    .filter(
      (name) =>
        (name.startsWith('ELECTRIC_') || ELECTRIC_UNPREFIXED.includes(name)) &&
        !known.has(name) &&
        env[name] !== undefined,
    )
    .sort()
  const lines: string[] = []
  if (unimplemented.length > 0)
    lines.push(
      `warning: the engine does not implement ${unimplemented.join(', ')}: ignored`,
    )
  for (const [name, how] of Object.entries(PARTLY))
    if (env[name]) lines.push(`note: ${name} is implemented in part: ${how}`)
  if (config.insecure)
    lines.push(
      'warning: insecure mode (ELECTRIC_INSECURE=true): requests need no secret, so anyone who can reach the engine can read every table the database role can read',
    )
  else if (config.secret === undefined)
    lines.push(
      'note: no ELECTRIC_SECRET and ELECTRIC_INSECURE is not true: requests need no secret, so the engine listens on loopback unless --host says otherwise',
    )
  return lines
}

/** The names the engine reads, for the test that holds its documentation to them. */
export const ENGINE_CONFIG_VARIABLES: readonly string[] = READ
