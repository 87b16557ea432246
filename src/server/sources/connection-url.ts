// A source's password joins its stored connection URL only here, in memory, for the engine.
// Anything the runtime says about a source passes through redact() first.

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

/** Removes a password from a text, plain or URL-encoded, should a driver ever echo it. */
export function redact(text: string, password: string | null): string {
  if (!password) return text
  return text
    .replaceAll(password, '********')
    .replaceAll(encodeURIComponent(password), '********')
}
