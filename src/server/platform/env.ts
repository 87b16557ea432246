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

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** `90s`, `30m`, `24h`, `7d`, or bare seconds; in milliseconds, at most `maxDays`. */
const duration = (fallback: string, maxDays: number) =>
  z.preprocess(
    blankIsUnset,
    z
      .string()
      .default(fallback)
      .transform((v, ctx) => {
        const match = /^(\d{1,9})\s*([smhd]?)$/.exec(v.trim())
        const ms = match
          ? Number(match[1]) *
            UNIT_MS[(match[2] || 's') as keyof typeof UNIT_MS]
          : NaN
        if (Number.isNaN(ms) || ms > maxDays * UNIT_MS.d)
          ctx.addIssue({
            code: 'custom',
            message: `must be a duration such as 90s, 30m, 24h or 7d, at most ${maxDays}d`,
          })
        return ms
      }),
  )

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
  SLUICE_ADMIN_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  LOCAL_LOGIN: flag,
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
  SUPABASE_API_URL: z.url().default('https://api.supabase.com'),
  SUPABASE_DB_HOST_TEMPLATE: z
    .string()
    .min(1)
    .default('db.{ref}.supabase.co:5432'),
  NEON_CLIENT_ID: optional,
  NEON_CLIENT_SECRET: optional,
  NEON_OAUTH_URL: z.url().default('https://oauth2.neon.tech'),
  NEON_API_URL: z.url().default('https://console.neon.tech/api/v2'),
  POSTHOG_KEY: optional,
  POSTHOG_HOST: z.url().default('https://us.i.posthog.com'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  LOG_FORMAT: z.preprocess(
    blankIsUnset,
    z.enum(['text', 'json']).default('text'),
  ),
  METRICS_PORT: z.preprocess(
    blankIsUnset,
    z.coerce.number().int().min(1).max(65535).optional(),
  ),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  TRUST_PROXY_HOPS: z.preprocess(
    blankIsUnset,
    z.coerce.number().int().min(0).max(10).default(0),
  ),
  ALLOW_PRIVATE_DATABASE_TARGETS: flag,
  SLUICE_CLAIM_INTERVAL_MS: z.preprocess(
    blankIsUnset,
    z.coerce.number().int().min(100).max(600_000).default(5_000),
  ),
  SLUICE_HOLDER_STALE_MS: z.preprocess(
    blankIsUnset,
    z.coerce.number().int().min(1_000).max(3_600_000).default(30_000),
  ),
  SLUICE_REGIONS: regionList,
  SLUICE_INTERNAL_URL: url,
  SLUICE_INTERNAL_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters')
    .max(512, 'must be at most 512 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SLUICE_INSTANCE_ID: z.preprocess(
    blankIsUnset,
    z
      .string()
      .max(100, 'must be at most 100 characters')
      .regex(/^[\w.:-]+$/, 'may hold only letters, digits, _ . : and -')
      .optional(),
  ),
  ALLOW_SHAPE_DELETION: flag,
  SECRET_ROTATION_GRACE: duration('24h', 30),
  MAX_SOURCES_PER_TEAM: positiveInt(20),
  SOURCE_CREATES_PER_MINUTE: positiveInt(10),
  API_TOKEN_REQUESTS_PER_MINUTE: positiveInt(300),
  LOCAL_LOGINS_PER_MINUTE: positiveInt(10),
  MAX_UNCLAIMED_SOURCES: positiveInt(100),
  MAX_UNCLAIMED_SOURCES_PER_IP: positiveInt(10),
  MAX_UNCLAIMED_SOURCES_PER_DATABASE: positiveInt(3),
  SMTP_URL: optional.refine(
    (v) => !v || /^smtps?:\/\/[^/?#]+/.test(v),
    'must be an smtp:// or smtps:// URL',
  ),
  SMTP_FROM: optional.pipe(z.email('must be an email address').optional()),
})

type EnvName = keyof typeof schema.shape

/**
 * What each variable means, by topic, in Markdown: docs/configuration.md is generated from this
 * and the schema above (its default and accepted values), by `npm run docs:config`, and a test
 * fails when it is stale. Every variable of the schema is described once.
 */
export const ENV_SECTIONS: readonly {
  title: string
  variables: Partial<Record<EnvName, string>>
}[] = [
  {
    title: 'The server',
    variables: {
      SLUICE_MODE:
        '`local` runs on one machine; `hosted` serves many teams and requires `SLUICE_SECRET` and `PUBLIC_URL`, and `SLUICE_INTERNAL_SECRET` with `DATABASE_URL`.',
      PORT: "The HTTP port: the dashboard, the API and apps' `/v1/shape`.",
      HOST: 'The interface to listen on (`0.0.0.0` for every interface).',
      DATA_DIR:
        "Local state: the embedded Postgres cluster, the generated secret, shape logs. Its user's alone: directories 0700, files 0600; looser modes are fixed at start, with a warning (the embedded cluster keeps Postgres's own).",
      DATABASE_URL:
        'The control-plane Postgres (14+, `wal_level=logical`). Unset: an embedded Postgres in `DATA_DIR/postgres` (local mode).',
      PUBLIC_URL:
        "The URL users reach Sluice at, e.g. `https://sluice.example.com`: used for OAuth redirects, the same-origin check, `Secure` cookies and HSTS. Unset: the request's own origin. In local mode Sluice answers only at loopback names (`localhost`, `127.0.0.1`, `[::1]`), at `PUBLIC_URL`'s host and at `HOST` (other names get 421, so a rebound DNS name cannot reach it).",
      SLUICE_SECRET:
        'The root secret from which encryption keys are derived (source passwords, provider tokens, alert secrets). Local mode generates one into `DATA_DIR/secret` when unset; hosted mode requires it.',
      TRUST_PROXY_HOPS:
        "Proxies in front of Sluice (nginx, a load balancer, a CDN) that each append to `X-Forwarded-For`: per-client limits then count the address the outermost one saw, the entry that many from the header's end. `0`: the socket's peer is the client, and the header is never read. Set it only when clients cannot reach Sluice but through those proxies (else they write that entry themselves).",
    },
  },
  {
    title: 'Sign-in',
    variables: {
      LOCAL_LOGIN:
        '`true` forces sign-in with a name and an email on, `false` off. Unset: on only in local mode with no OAuth provider. Hosted mode refuses to start with `true`.',
      DANGEROUSLY_ALLOW_LOCAL_LOGIN_IN_HOSTED_MODE:
        '`true` lets `LOCAL_LOGIN=true` start in hosted mode, where anyone who reaches the server can sign in as any email; every start then logs a warning.',
      GITHUB_CLIENT_ID:
        'A GitHub OAuth app, with `GITHUB_CLIENT_SECRET` (both or neither); callback `PUBLIC_URL/api/public/auth/github/callback`.',
      GITHUB_CLIENT_SECRET: "The GitHub OAuth app's secret.",
      GITHUB_AUTHORIZE_URL:
        "GitHub's authorize endpoint (tests point it at a local fake).",
      GITHUB_TOKEN_URL: "GitHub's token endpoint.",
      GITHUB_API_URL:
        "GitHub's API, for the signed-in user's profile and emails.",
      GOOGLE_CLIENT_ID:
        'A Google OAuth client, with `GOOGLE_CLIENT_SECRET` (both or neither); callback `PUBLIC_URL/api/public/auth/google/callback`.',
      GOOGLE_CLIENT_SECRET: "The Google OAuth client's secret.",
      GOOGLE_AUTHORIZE_URL:
        "Google's authorize endpoint (tests point it at a local fake).",
      GOOGLE_TOKEN_URL: "Google's token endpoint.",
      GOOGLE_ISSUER: 'The issuer expected in Google ID tokens.',
    },
  },
  {
    title: 'Provider accounts (Supabase and Neon)',
    variables: {
      SUPABASE_CLIENT_ID:
        'A Supabase OAuth app, with `SUPABASE_CLIENT_SECRET` (scopes: Organizations, Projects, Database read); callback `PUBLIC_URL/api/public/auth/supabase/callback`. Unset: users connect Supabase with a personal access token.',
      SUPABASE_CLIENT_SECRET: "The Supabase OAuth app's secret.",
      SUPABASE_API_URL:
        "Supabase's Management API base; its OAuth endpoints are `/v1/oauth/authorize` and `/v1/oauth/token` (tests point it at a fake).",
      SUPABASE_DB_HOST_TEMPLATE:
        "A Supabase project's direct database host and port, `{ref}` standing for the project ref; the wizard builds connection strings from it.",
      NEON_CLIENT_ID:
        'A Neon OAuth client (Neon partners only), with `NEON_CLIENT_SECRET`; callback `PUBLIC_URL/api/public/auth/neon/callback`. Unset: users connect Neon with an API key.',
      NEON_CLIENT_SECRET: "The Neon OAuth client's secret.",
      NEON_OAUTH_URL:
        "Neon's OAuth server (`/oauth2/auth`, `/oauth2/token`, `/oauth2/revoke`).",
      NEON_API_URL: "Neon's API v2 base.",
    },
  },
  {
    title: 'Sources and their limits',
    variables: {
      ALLOW_PRIVATE_DATABASE_TARGETS:
        "`true` lets the database readiness check and sources reach loopback and private addresses (`127.0.0.1`, `10/8`, `192.168/16`, `fc00::/7`, `localhost`, `*.internal`). Unset: on in local mode (users' databases live on localhost), off in hosted mode (a hosted service must not be a way into its own network).",
      ALLOW_SHAPE_DELETION:
        "`true` lets apps `DELETE /v1/shape` (by definition, handle or both) with their source's `source_id` and `source_secret`, as Electric's own `ALLOW_SHAPE_DELETION`; the shape's clients get 409 and refetch. Off: 405.",
      SECRET_ROTATION_GRACE:
        "How long a source's previous secret keeps opening its shapes after a rotation (`90s`, `30m`, `24h`, `7d`; at most `30d`; `0` ends it at once), so apps move to the new one without downtime. Then it answers 401. Default `24h`.",
      MAX_SOURCES_PER_TEAM:
        'Sources a team may have that are not deleted; past it, adding one answers 409 and the dashboard says to delete one first.',
      SOURCE_CREATES_PER_MINUTE:
        'Sources one user, and one team, may add per minute (each is a standing connection); past it, 429 with `retry-after`.',
      API_TOKEN_REQUESTS_PER_MINUTE:
        'Requests one team API token may make per minute, whatever it calls (each is also audited); past it, 429 with `retry-after`. The per-user limits (adding sources) apply to a token as to a user.',
      LOCAL_LOGINS_PER_MINUTE:
        'Local sign-ins one client IP may make per minute (each can make a user); past it, 429 with `retry-after`.',
      MAX_UNCLAIMED_SOURCES:
        'Claimable sources that may wait to be claimed at once, across all clients; past it, creating one answers 503 with `retry-after`.',
      MAX_UNCLAIMED_SOURCES_PER_IP:
        'Of those, how many one client IP may have waiting, so one client cannot fill the cap; past it, 429 with `retry-after` (when the first of them expires).',
      MAX_UNCLAIMED_SOURCES_PER_DATABASE:
        'Of those, how many may wait on one database (host, port and name, whatever the password or parameters): each holds a replication slot there, retaining WAL, until claimed or expired. Past it, 429 with `retry-after`.',
    },
  },
  {
    title: 'Several servers on one control plane',
    variables: {
      SLUICE_REGIONS:
        "A comma list of the regions whose sources this server runs (claims); servers sharing a control plane split each region's sources between them. Unset or blank: every region.",
      SLUICE_INSTANCE_ID:
        "Names this server in the event logs it writes (`instance_id`). Servers sharing one control-plane database need a stable one each (letters, digits, `_ . : -`, 100 at most): it also names the server's own replication slot on the control plane, which a retired server leaves for the operator to drop. Unset: the host name and pid, stable for the process.",
      SLUICE_INTERNAL_URL:
        'Where other servers reach this one (e.g. `http://10.0.0.5:3001`), recorded with each source this server holds when `DATABASE_URL` is set. Unset: its listen address, `http://HOST:PORT` (`127.0.0.1` when `HOST` is every interface).',
      SLUICE_INTERNAL_SECRET:
        "Shared by the servers of one control plane: a request about a source another server holds (restart, clear cache, delete, the explorer's schema and count, deleting a live shape, apps' `/v1/shape`) is forwarded to that server with it, and its answer returned. Required in hosted mode with `DATABASE_URL`; unset, such requests answer 503.",
      SLUICE_CLAIM_INTERVAL_MS:
        'How often a server reads the sources table and claims the unheld sources of its regions: when a server dies, another of its regions takes its sources over within about this long. Clients resume with the same handle when the servers share the data dir (the same `DATA_DIR` path on shared storage), else they get 409 and refetch.',
      SLUICE_HOLDER_STALE_MS:
        'How long a holding server may go without refreshing its claims (a heartbeat every `SLUICE_CLAIM_INTERVAL_MS`, or a third of this if shorter) before a server of its region ends its claims session and takes its sources over: a hung server (alive, not answering) otherwise keeps them, and its locks, for ever. Keep it several times `SLUICE_CLAIM_INTERVAL_MS`.',
    },
  },
  {
    title: 'Operating',
    variables: {
      LOG_LEVEL:
        'The least severe log lines written; `debug` adds a `request` line per request (method, path without its query, status, duration).',
      LOG_FORMAT:
        "`json` writes one JSON object per line (`time`, `level`, `msg`, `request_id`, and the line's fields) for log collectors.",
      METRICS_PORT:
        'Serves `GET /metrics` (Prometheus text format) on this port, apart from `PORT`. Unset: there is no metrics endpoint.',
      METRICS_HOST:
        'The interface the metrics port listens on (`0.0.0.0` for a scraper on another machine). Loopback unless opened, since metrics name every source id and their load (no secrets, but not for the world either).',
      SLUICE_ADMIN_TOKEN:
        'Turns on the admin HTTP API under `/api/admin`, sent as `Authorization: Bearer`. Unset: those paths answer 404.',
      POSTHOG_KEY:
        "Product analytics: with a key, the dashboard sends page views and, once signed in, who the user is to PostHog through Sluice's own `/ingest` proxy. Unset: off, and the browser does not even download the analytics library.",
      POSTHOG_HOST: 'Where `/ingest` forwards analytics (never with cookies).',
    },
  },
  {
    title: 'Alerts by email',
    variables: {
      SMTP_URL:
        "The operator's SMTP server email alerts go through, e.g. `smtp://user:pass@mail.example.com:587` (STARTTLS when offered) or `smtps://…:465`, the user and password percent-encoded. Its password is never logged or shown. Unset: teams can add only webhooks.",
      SMTP_FROM:
        "The sender of email alerts. Unset: `alerts@` the public origin's host (`PUBLIC_URL`'s).",
    },
  },
]

/** Each variable's schema, for the reference's defaults and accepted values (docs:config). */
export const ENV_FIELDS: Readonly<Record<EnvName, z.ZodType>> = schema.shape

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
