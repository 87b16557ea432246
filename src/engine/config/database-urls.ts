// The database URLs the standalone engine is given, checked as Electric checks its own
// (config.ex parse_postgresql_uri) and given the CA file, so every connection verifies the
// server against it. Messages never quote a URL: it may hold a password.
import type { Read } from './env-values.ts'

const MAX_URL_LENGTH = 4096

/** A `postgres://` or `postgresql://` URL with a host, without `replication=`. */
export function readDatabaseUrl(text: string): Read<URL> {
  if (text.length > MAX_URL_LENGTH)
    return { ok: false, error: `is longer than ${MAX_URL_LENGTH} characters` }
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return { ok: false, error: 'must be a postgres:// URL' }
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    return { ok: false, error: 'must be a postgres:// URL' }
  if (!url.hostname) return { ok: false, error: 'names no host' }
  // The engine opens replication connections and plain ones itself; a URL forcing one kind
  // would make the other fail.
  if (url.searchParams.has('replication'))
    return {
      ok: false,
      error:
        'has a "replication" query option: the engine opens both a replication connection and regular connections to Postgres as needed',
    }
  return { ok: true, value: url }
}

/**
 * The URL as the engine connects with it. With a CA file, pg reads it as `sslrootcert` and
 * verifies the server's certificate and name against it, as Electric does with the file.
 */
export function connectionString(url: URL, caFile: string | undefined): string {
  if (caFile === undefined) return url.toString()
  const copy = new URL(url)
  copy.searchParams.set('sslrootcert', caFile)
  // Electric then always checks the server's identity: name and chain, as pg's verify-full
  // (`verify-ca`, asked for by name, stays).
  if (copy.searchParams.get('sslmode') !== 'verify-ca')
    copy.searchParams.set('sslmode', 'verify-full')
  return copy.toString()
}

/** Electric refuses a CA file with TLS turned off; so does the engine. */
export function sslDisabled(url: URL): boolean {
  return url.searchParams.get('sslmode') === 'disable'
}
