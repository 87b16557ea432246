// Turns a visitor's Postgres URL into an explicit target. Nothing of the URL reaches `pg`
// unread: `pg` lets query parameters override the host and read files (?host=, ?sslrootcert=),
// so only the keys below are taken and every other parameter is refused by name. Shared, so the
// app can tell a URL the server would refuse (a 400) without asking (validation-request.ts).

const SSL_MODES = [
  'disable',
  'allow',
  'prefer',
  'require',
  'verify-ca',
  'verify-full',
] as const
export type SslMode = (typeof SSL_MODES)[number]

const CHANNEL_BINDINGS = ['disable', 'prefer', 'require'] as const
type ChannelBinding = (typeof CHANNEL_BINDINGS)[number]

export type DatabaseTarget = {
  /** Lower-case host name, dotted IPv4, or IPv6 without brackets. */
  host: string
  port: number
  user: string
  /** Empty when the URL has none; never looked up anywhere else. */
  password: string
  database: string
  sslmode: SslMode
  channelBinding: ChannelBinding
}

/** A URL we will not check; the message is safe to show (it never holds the password). */
export class DatabaseUrlError extends Error {}

/** The text shown for a URL that does not parse, with the reusable routine's hint. */
const INVALID_URL =
  'Invalid database URL provided. Special characters must be URL encoded.'
const ALLOWED_PARAMETERS = new Set(['sslmode', 'channel_binding'])
/** Postgres names (NAMEDATALEN - 1): a longer user or database cannot exist. */
const POSTGRES_NAME_MAX_BYTES = 63
/** The longest name DNS can hold. */
const HOST_MAX_LENGTH = 253
const HOST_NAME =
  /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/

function oneOf<T extends string>(
  values: readonly T[],
  name: string,
  value: string | null,
  fallback: T,
): T {
  if (value === null) return fallback
  if ((values as readonly string[]).includes(value)) return value as T
  throw new DatabaseUrlError(
    `Unsupported ${name} "${value}": use one of ${values.join(', ')}.`,
  )
}

function decode(part: string, what: string): string {
  try {
    return decodeURIComponent(part)
  } catch {
    throw new DatabaseUrlError(
      `The ${what} in the URL is not valid percent-encoding. Special characters must be URL encoded.`,
    )
  }
}

/**
 * A host as the WHATWG http parser sees it: `0x7f000001`, `2130706433`, `0177.0.0.1` and
 * `127.1` all become `127.0.0.1`, names are lower-cased and punycoded. `postgres:` is not a
 * special scheme, so its own parse leaves such hosts as opaque strings.
 */
function normalizeHost(raw: string): string {
  if (raw === '') throw new DatabaseUrlError('The URL must name a host.')
  // Unix sockets: a path (`/tmp`) or its encoded form (`%2Ftmp`). Other escapes are how a
  // non-special URL carries a Unicode name, which the http parser below punycodes.
  const decoded = decode(raw, 'host')
  if (decoded.includes('/') || decoded.includes('%') || decoded.includes('\\'))
    throw new DatabaseUrlError(
      'Unix socket and percent-encoded hosts are not supported; use a host name or IP address.',
    )
  if (raw.startsWith('[')) {
    if (!raw.endsWith(']'))
      throw new DatabaseUrlError('The host is not a valid IPv6 address.')
    return new URL(`http://${raw}`).hostname.slice(1, -1)
  }
  let host: string
  try {
    host = new URL(`http://${decoded}`).hostname
  } catch {
    throw new DatabaseUrlError(`The host "${raw}" is not a valid host name.`)
  }
  if (!HOST_NAME.test(host))
    throw new DatabaseUrlError(`The host "${raw}" is not a valid host name.`)
  return host.replace(/\.$/, '')
}

// Refused here rather than left to Postgres: the name becomes part of the source's indexed key.
function postgresName(name: string, what: string): string {
  if (new TextEncoder().encode(name).length > POSTGRES_NAME_MAX_BYTES)
    throw new DatabaseUrlError(
      `The ${what} is longer than Postgres allows (${POSTGRES_NAME_MAX_BYTES} bytes).`,
    )
  return name
}

function parsePort(raw: string): number {
  if (raw === '') return 5432
  const port = Number(raw)
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535)
    throw new DatabaseUrlError('The port must be a number from 1 to 65535.')
  return port
}

export function parseDatabaseUrl(input: string): DatabaseTarget {
  const text = input.trim()
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase()
  if (scheme !== undefined && scheme !== 'postgres' && scheme !== 'postgresql')
    throw new DatabaseUrlError(
      'The URL must start with postgres:// or postgresql://.',
    )
  let url: URL
  try {
    url = new URL(text)
  } catch {
    // The URL parser would name the input (and so the password): say only what is wrong.
    const port =
      /^[a-z]+:\/\/(?:[^/?#]*@)?(?:\[[^\]]*\]|[^/?#:[\]]*):([^/?#@]*)(?=[/?#]|$)/i.exec(
        text,
      )?.[1]
    if (port !== undefined && (!/^\d*$/.test(port) || Number(port) > 65535))
      throw new DatabaseUrlError('The port must be a number from 1 to 65535.')
    throw new DatabaseUrlError(INVALID_URL)
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    throw new DatabaseUrlError(
      'The URL must start with postgres:// or postgresql://.',
    )
  // An '@' past the authority means a password with an unencoded '/', '?' or '#' spilled into
  // the path, query or fragment: the messages below would quote a piece of it.
  if (/@/.test(url.pathname + url.search + url.hash))
    throw new DatabaseUrlError(INVALID_URL)
  for (const name of url.searchParams.keys())
    if (!ALLOWED_PARAMETERS.has(name))
      throw new DatabaseUrlError(
        `The URL parameter "${name}" is not supported; only sslmode and channel_binding are.`,
      )
  const host = normalizeHost(url.hostname)
  // After normalizing: punycode makes a Unicode name longer.
  if (host.length > HOST_MAX_LENGTH)
    throw new DatabaseUrlError(
      `The host name is longer than DNS allows (${HOST_MAX_LENGTH} characters).`,
    )
  const user = postgresName(decode(url.username, 'user name'), 'user name')
  if (user === '') throw new DatabaseUrlError('The URL must name a user.')
  const path = url.pathname.replace(/^\//, '')
  if (path.includes('/'))
    throw new DatabaseUrlError('The database name must not contain "/".')
  const database = postgresName(
    decode(path, 'database name') || user,
    'database name',
  )
  return {
    host,
    port: parsePort(url.port),
    user,
    password: decode(url.password, 'password'),
    database,
    sslmode: oneOf(
      SSL_MODES,
      'sslmode',
      url.searchParams.get('sslmode'),
      'prefer',
    ),
    channelBinding: oneOf(
      CHANNEL_BINDINGS,
      'channel_binding',
      url.searchParams.get('channel_binding'),
      'prefer',
    ),
  }
}
