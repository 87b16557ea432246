// How secrets appear on screen: enough to recognise, never enough to use.

const MASK = '***'
const PASSWORD_MASK = '****'
/** Characters shown at each end of a secret. */
const SHOWN = 3

/**
 * First 3 + '***' + last 3. A secret too short to keep anything hidden that way is masked
 * whole: showing six characters of a six-character secret would show all of it.
 */
export function maskSecret(secret: string): string {
  if (secret.length <= SHOWN * 2) return MASK
  return secret.slice(0, SHOWN) + MASK + secret.slice(-SHOWN)
}

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i

/**
 * A connection string without its scheme and with any password masked: `user:****@host...`.
 * Stored connection strings carry no password at all, but they do name the user, and a masked
 * password says "there is one" without implying the database needs none. Text that is not a
 * URL without an `@` is passed through unchanged apart from the scheme.
 */
export function maskConnectionUrl(url: string): string {
  const rest = url.trim().replace(SCHEME, '')
  // The user info ends at the last '@' of the whole text, not of the authority: a password
  // typed without URL encoding may hold '/', '?' or '@', and cutting there would show it.
  const at = rest.lastIndexOf('@')
  if (at === -1) return rest
  const userInfo = rest.slice(0, at)
  const colon = userInfo.indexOf(':')
  const user = colon === -1 ? userInfo : userInfo.slice(0, colon)
  const masked = user ? `${user}:${PASSWORD_MASK}` : PASSWORD_MASK
  return masked + rest.slice(at)
}
