// A source's password joins its stored connection URL only here, in memory, for the engine.
// What the runtime says about a source is built from fixed texts and Postgres' own words, and
// problemOf() withholds those words when they happen to hold the password.
import type { Problem } from './lifecycle.ts'

/** The stored URL (no password) with the decrypted password put back. */
export function withPassword(
  connectionUrl: string,
  password: string | null,
): string {
  if (password === null) return connectionUrl
  const url = new URL(connectionUrl)
  url.password = encodeURIComponent(password)
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
