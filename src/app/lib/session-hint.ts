// Whether a session may exist, and whose, from the page-readable cookie the server sets and
// clears with the session cookie. Without it a visit is signed out, known without asking the
// server (whose answer would be a 401, which the browser logs as an error on every signed-out
// visit).
export const SESSION_HINT_COOKIE = 'sluice_signed_in'

export function mayBeSignedIn(): boolean {
  return hint() != null
}

/**
 * Whose session the hint names (a user id); null without one, or from an older server whose
 * hint named nobody. Only a hint: the server decides.
 */
export function hintedUser(): string | null {
  const value = hint()
  return value && value !== '1' ? decodeURIComponent(value) : null
}

function hint(): string | null {
  for (const cookie of document.cookie.split(';')) {
    const [name, ...value] = cookie.trim().split('=')
    if (name === SESSION_HINT_COOKIE) return value.join('=')
  }
  return null
}

/** The server refused the session (expired, ended elsewhere): stop asking until a sign-in. */
export function forgetSessionHint(): void {
  document.cookie = `${SESSION_HINT_COOKIE}=; path=/; max-age=0`
}
