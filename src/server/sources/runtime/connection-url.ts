// A source's password joins its stored connection URL only here, in memory, for the engine.
// What the runtime says about a source is built from fixed texts and Postgres' own words, and
// problemOf() withholds those words when they happen to hold the password.
import type { Problem } from './lifecycle.ts'

// pg 8 reads sslmode=prefer and require as verify-full: a source behind a certificate Node
// does not trust (Supabase's own CA, a self-signed server) passed the readiness check, which
// reads sslmode as libpq does (validation/client.ts), and then never connected. Asking pg
// for libpq's reading makes both modes encrypt without verifying, as the user asked.
// verify-ca stays pg's verify-full (libpq's reading needs a root certificate we never take).
const LIBPQ_READING = new Set(['prefer', 'require'])

/**
 * The stored URL (no password) with the decrypted password put back, and its sslmode read as
 * libpq reads it: what the engine connects with.
 */
export function withPassword(
  connectionUrl: string,
  password: string | null,
): string {
  const url = new URL(connectionUrl)
  if (password !== null) url.password = encodeURIComponent(password)
  if (LIBPQ_READING.has(url.searchParams.get('sslmode') ?? ''))
    url.searchParams.set('uselibpqcompat', 'true')
  return url.toString()
}

/** The role the URL connects as, named in the fixes the runtime suggests. */
export function roleOf(connectionUrl: string): string | undefined {
  try {
    const user = new URL(connectionUrl).username
    return user ? decodeURIComponent(user) : undefined
  } catch {
    return undefined
  }
}

/**
 * A driver's or server's error as the lifecycle reads it. Postgres never sees the password in
 * its messages' parts, but a database or role may be named like it: then the message is
 * withheld whole (the lifecycle shows only its own words), never spliced.
 */
export function problemOf(
  { code, message }: { code?: string; message: string },
  password: string | null,
): Problem {
  return { code, message, withheld: holdsPassword(message, password) }
}

function holdsPassword(text: string, password: string | null): boolean {
  if (!password) return false
  return text.includes(password) || text.includes(encodeURIComponent(password))
}
