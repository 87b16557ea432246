// The only reader of process.env: parses configuration once, fails fast naming the bad variable.
import { hostname } from 'node:os'
import { z } from 'zod'
import { REGIONS } from '../../shared/sources.ts'

const optional = z
  .string()
  .optional()
  .transform((v) => (v === '' ? undefined : v))

const blankIsUnset = (v: unknown) =>
  typeof v === 'string' && v.trim() === '' ? undefined : v

const flag = z
  .preprocess(blankIsUnset, z.enum(['true', 'false', '1', '0']).optional())
  .optional()
  .transform((v) => (v === undefined ? undefined : v === 'true' || v === '1'))

const positiveInt = (fallback: number) =>
  z.preprocess(blankIsUnset, z.coerce.number().int().min(1).default(fallback))

const REGION_IDS = REGIONS.map((region) => region.id)

/** A comma list of region ids (spaces allowed around them); unset or blank: every region. */
const regionList = z.preprocess(
  blankIsUnset,
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return [...REGION_IDS]
      const ids = [...new Set(v.split(',').map((id) => id.trim()))]
      const unknown = ids.filter((id) => !(REGION_IDS as string[]).includes(id))
      if (unknown.length > 0)
        ctx.addIssue({
          code: 'custom',
          message: `unknown region ${unknown.map((id) => `'${id.slice(0, 40)}'`).join(', ')}; the regions are ${REGION_IDS.join(', ')}`,
        })
      return ids
    }),
)

const url = z
  .url()
  .optional()
  .or(z.literal('').transform(() => undefined))

const schema = z.object({
  SLUICE_MODE: z.enum(['local', 'hosted']).default('local'),
  PORT: z.preprocess(
    blankIsUnset,
    z.coerce.number().int().min(0).max(65535).default(5133),
  ),
  HOST: z.string().min(1).default('localhost'),
  DATA_DIR: z.string().min(1).default('./.sluice'),
  DATABASE_URL: z
    .string()
    .optional()
    .refine(
      (v) => !v || /^postgres(ql)?:\/\//.test(v),
      'must be a postgres:// or postgresql:// URL',
    ),
  PUBLIC_URL: url,
  SLUICE_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Turns on /api/admin (bearer token); unset, those routes answer 404. */
  SLUICE_ADMIN_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  LOCAL_LOGIN: flag,
  /** Lets LOCAL_LOGIN=true start in hosted mode, where anyone could sign in as any email. */
  DANGEROUSLY_ALLOW_LOCAL_LOGIN_IN_HOSTED_MODE: flag,
  GITHUB_CLIENT_ID: optional,
  GITHUB_CLIENT_SECRET: optional,
  GITHUB_AUTHORIZE_URL: z
    .url()
    .default('https://github.com/login/oauth/authorize'),
  GITHUB_TOKEN_URL: z
    .url()
    .default('https://github.com/login/oauth/access_token'),
  GITHUB_API_URL: z.url().default('https://api.github.com'),
  GOOGLE_CLIENT_ID: optional,
  GOOGLE_CLIENT_SECRET: optional,
  GOOGLE_AUTHORIZE_URL: z
    .url()
    .default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: z.url().default('https://oauth2.googleapis.com/token'),
  GOOGLE_ISSUER: z.string().default('https://accounts.google.com'),
  SUPABASE_CLIENT_ID: optional,
  SUPABASE_CLIENT_SECRET: optional,
  /** Management API base; its OAuth endpoints are /v1/oauth/authorize and /v1/oauth/token. */
  SUPABASE_API_URL: z.url().default('https://api.supabase.com'),
  /** A project's direct database host and port; `{ref}` is the project ref. */
  SUPABASE_DB_HOST_TEMPLATE: z
    .string()
    .min(1)
    .default('db.{ref}.supabase.co:5432'),
  NEON_CLIENT_ID: optional,
  NEON_CLIENT_SECRET: optional,
  /** Neon's OAuth server; endpoints /oauth2/auth and /oauth2/token. */
  NEON_OAUTH_URL: z.url().default('https://oauth2.neon.tech'),
  NEON_API_URL: z.url().default('https://console.neon.tech/api/v2'),
  POSTHOG_KEY: optional,
  POSTHOG_HOST: z.url().default('https://us.i.posthog.com'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  /** json: one JSON object per line (time, level, msg, request_id, fields), for log collectors. */
  LOG_FORMAT: z.preprocess(
    blankIsUnset,
    z.enum(['text', 'json']).default('text'),
  ),
  /** Serves GET /metrics (Prometheus text format) on its own port; unset, there is none. */
  METRICS_PORT: z.preprocess(
    blankIsUnset,
    z.coerce.number().int().min(1).max(65535).optional(),
  ),
  /**
   * Where the metrics port listens: loopback unless the operator opens it, since metrics
   * name every source id and their load (no secrets, but not for the world either).
   */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * Proxies in front of Sluice that each append the address they saw to X-Forwarded-For (nginx,
   * a load balancer). 0: the socket's peer is the client, and the header is never read.
   */
  TRUST_PROXY_HOPS: z.preprocess(
    blankIsUnset,
    z.coerce.number().int().min(0).max(10).default(0),
  ),
  ALLOW_PRIVATE_DATABASE_TARGETS: flag,
  /**
   * How often the sources table is read and unheld sources of this server's regions claimed:
   * after a holder dies, its sources are taken over within about this long.
   */
  SLUICE_CLAIM_INTERVAL_MS: z.preprocess(
    blankIsUnset,
    z.coerce.number().int().min(100).max(600_000).default(5_000),
  ),
  /**
   * How long a server may go without a heartbeat on its claims before a server of its region
   * ends its claims session and takes its sources over (a hung process keeps its locks).
   * Keep it several times SLUICE_CLAIM_INTERVAL_MS.
   */
  SLUICE_HOLDER_STALE_MS: z.preprocess(
    blankIsUnset,
    z.coerce.number().int().min(1_000).max(3_600_000).default(30_000),
  ),
  /** The regions whose sources this server runs (claims); unset: all of them. */
  SLUICE_REGIONS: regionList,
  /**
   * Where other servers reach this one (recorded with its claims); unset: its listen address
   * (HOST and PORT, loopback when HOST is every interface).
   */
  SLUICE_INTERNAL_URL: url,
  /** Authenticates requests forwarded between servers; required in hosted mode with DATABASE_URL. */
  SLUICE_INTERNAL_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters')
    .max(512, 'must be at most 512 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /**
   * Names this server in the event logs it writes (`instance_id`); unset: host name and pid,
   * stable for the process.
   */
  SLUICE_INSTANCE_ID: z.preprocess(
    blankIsUnset,
    z
      .string()
      .max(100, 'must be at most 100 characters')
      .regex(/^[\w.:-]+$/, 'may hold only letters, digits, _ . : and -')
      .optional(),
  ),
  /** Apps may DELETE /v1/shape (with their source's credentials), as Electric's ALLOW_SHAPE_DELETION. */
  ALLOW_SHAPE_DELETION: flag,
  /** Sources a team may have that are not deleted. */
  MAX_SOURCES_PER_TEAM: positiveInt(20),
  /** Sources one user, and one team, may add per minute (each is a standing connection). */
  SOURCE_CREATES_PER_MINUTE: positiveInt(10),
  /** Local sign-ins one client IP may make per minute (each can make a user). */
  LOCAL_LOGINS_PER_MINUTE: positiveInt(10),
  /** Claimable sources that may wait to be claimed at once, across all clients. */
  MAX_UNCLAIMED_SOURCES: positiveInt(100),
  /** Of those, how many one client IP may have waiting, so one client cannot fill the cap. */
  MAX_UNCLAIMED_SOURCES_PER_IP: positiveInt(10),
  /**
   * Of those, how many may wait on one database (host, port and name; not the password): each
   * holds a replication slot there, retaining WAL, until claimed or expired.
   */
  MAX_UNCLAIMED_SOURCES_PER_DATABASE: positiveInt(3),
  /** The operator's SMTP server for email alerts; unset, teams cannot add email destinations. */
  SMTP_URL: optional.refine(
    (v) => !v || /^smtps?:\/\/[^/?#]+/.test(v),
    'must be an smtp:// or smtps:// URL',
  ),
  /** The sender of email alerts; default alerts@ the public origin's host. */
  SMTP_FROM: optional.pipe(z.email('must be an email address').optional()),
})

type RawEnv = z.infer<typeof schema>

/** Every variable Sluice reads: deployment files are checked against it (deploy.test.ts). */
export const ENV_NAMES: readonly string[] = Object.keys(schema.shape)

export type Env = Omit<RawEnv, 'SLUICE_INSTANCE_ID' | 'SLUICE_INTERNAL_URL'> & {
  SLUICE_INSTANCE_ID: string
  SLUICE_INTERNAL_URL: string
  /** SLUICE_INSTANCE_ID was set, so it is stable across restarts (not host name and pid). */
  instanceIdGiven: boolean
  githubEnabled: boolean
  googleEnabled: boolean
  /** Connecting a Supabase or Neon account by OAuth (a personal token works without). */
  supabaseOAuthEnabled: boolean
  neonOAuthEnabled: boolean
  /** Sign-in with a name and email only: for one machine, never silently in hosted mode. */
  localLoginEnabled: boolean
  /** Local sign-in is on in hosted mode (by the dangerous override): warned at every start. */
  localLoginExposed: boolean
  /**
   * The readiness check may reach loopback and private addresses: users' databases live on
   * localhost in local mode; a hosted service must not be a way into its own network.
   */
  allowPrivateDatabaseTargets: boolean
}

export class EnvError extends Error {}

/** Parses an environment; throws EnvError whose message names every bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = schema.safeParse(source)
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.')}: ${issue.message}`,
    )
    throw new EnvError(`Invalid configuration:\n${lines.join('\n')}`)
  }
  const env = parsed.data
  const problems: string[] = []
  const pair = (id?: string, secret?: string, name = '') => {
    if (Boolean(id) !== Boolean(secret))
      problems.push(
        `  ${name}_CLIENT_ID and ${name}_CLIENT_SECRET must be set together`,
      )
    return Boolean(id && secret)
  }
  const githubEnabled = pair(
    env.GITHUB_CLIENT_ID,
    env.GITHUB_CLIENT_SECRET,
    'GITHUB',
  )
  const googleEnabled = pair(
    env.GOOGLE_CLIENT_ID,
    env.GOOGLE_CLIENT_SECRET,
    'GOOGLE',
  )
  const supabaseOAuthEnabled = pair(
    env.SUPABASE_CLIENT_ID,
    env.SUPABASE_CLIENT_SECRET,
    'SUPABASE',
  )
  const neonOAuthEnabled = pair(
    env.NEON_CLIENT_ID,
    env.NEON_CLIENT_SECRET,
    'NEON',
  )
  if (env.SLUICE_MODE === 'hosted') {
    if (!env.SLUICE_SECRET)
      problems.push('  SLUICE_SECRET: required when SLUICE_MODE=hosted')
    if (!env.PUBLIC_URL)
      problems.push('  PUBLIC_URL: required when SLUICE_MODE=hosted')
    // A shared control plane means other servers may forward to this one.
    if (env.DATABASE_URL && !env.SLUICE_INTERNAL_SECRET)
      problems.push(
        '  SLUICE_INTERNAL_SECRET: required when SLUICE_MODE=hosted with DATABASE_URL (servers sharing a control plane forward requests to each other with it)',
      )
    if (env.LOCAL_LOGIN && !env.DANGEROUSLY_ALLOW_LOCAL_LOGIN_IN_HOSTED_MODE)
      problems.push(
        '  LOCAL_LOGIN: true in hosted mode lets anyone sign in as any email address; configure an OAuth provider instead (to allow it anyway, also set DANGEROUSLY_ALLOW_LOCAL_LOGIN_IN_HOSTED_MODE=true)',
      )
  }
  if (problems.length > 0)
    throw new EnvError(`Invalid configuration:\n${problems.join('\n')}`)

  const noProvider = !githubEnabled && !googleEnabled
  const localLoginEnabled =
    env.LOCAL_LOGIN ?? (noProvider && env.SLUICE_MODE === 'local')
  const allowPrivateDatabaseTargets =
    env.ALLOW_PRIVATE_DATABASE_TARGETS ?? env.SLUICE_MODE === 'local'
  return {
    ...env,
    SLUICE_INSTANCE_ID:
      env.SLUICE_INSTANCE_ID ?? `${hostname().slice(0, 80)}-${process.pid}`,
    instanceIdGiven: env.SLUICE_INSTANCE_ID !== undefined,
    SLUICE_INTERNAL_URL: (
      env.SLUICE_INTERNAL_URL ?? listenUrl(env.HOST, env.PORT)
    ).replace(/\/+$/, ''),
    githubEnabled,
    googleEnabled,
    supabaseOAuthEnabled,
    neonOAuthEnabled,
    localLoginEnabled,
    localLoginExposed: localLoginEnabled && env.SLUICE_MODE === 'hosted',
    allowPrivateDatabaseTargets,
  }
}

/** The address this server listens on, as another server on the machine would call it. */
function listenUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}`
}

/** Reads process.env; the rest of the server receives the parsed Env. */
export function readEnv(): Env {
  return parseEnv(process.env)
}
