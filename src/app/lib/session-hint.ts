// Whether a session may exist, from the page-readable cookie the server sets and clears with
// the session cookie. Without it a visit is signed out, known without asking the server (whose
// answer would be a 401, which the browser logs as an error on every signed-out visit).
export const SESSION_HINT_COOKIE = 'sluice_signed_in'

export function mayBeSignedIn(): boolean {
  return document.cookie
    .split(';')
    .some((c) => c.trim().startsWith(`${SESSION_HINT_COOKIE}=`))
}

/** The server refused the session (expired, ended elsewhere): stop asking until a sign-in. */
export function forgetSessionHint(): void {
  document.cookie = `${SESSION_HINT_COOKIE}=; path=/; max-age=0`
}
