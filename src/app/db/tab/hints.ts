// What this browser remembers about its local store between visits, in localStorage so it can
// be read before anything opens: that a store exists (index.html starts Postgres at once),
// whose data it holds fully synced (a repeat visit then shows it without checking first), and
// what its last screen showed (kept by last-screen.ts, forgotten here with the rest).
// Storage can be refused (private mode): then nothing is remembered and every visit checks.
import { STORE_HINT } from './boot-store.ts'

const SYNCED_FOR = 'sluice.synced-for'
/** The rows the last screen showed, of the user the store is synced for (last-screen.ts). */
export const LAST_SCREEN = 'sluice.last-screen'

/** A store exists in this browser (set when a user's data is claimed, cleared on sign-out). */
export function rememberStore(present: boolean): void {
  write(STORE_HINT, present ? '1' : null)
  if (!present) rememberSyncedFor(null)
}

/** The user whose data the store holds, every list synced at least once; null if unknown. */
export function syncedFor(): string | null {
  try {
    return localStorage.getItem(SYNCED_FOR)
  } catch {
    return null
  }
}

/** Set once a user's first sync is complete; cleared when the store changes hands. */
export function rememberSyncedFor(userId: string | null): void {
  // What the last screen showed belongs to whoever the store held before.
  if (userId !== syncedFor()) write(LAST_SCREEN, null)
  write(SYNCED_FOR, userId)
}

function write(key: string, value: string | null) {
  try {
    if (value == null) localStorage.removeItem(key)
    else localStorage.setItem(key, value)
  } catch {
    // Refused: nothing is remembered.
  }
}
