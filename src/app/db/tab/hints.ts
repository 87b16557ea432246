// What this browser remembers about its local store between visits, in localStorage so it can
// be read before anything opens: that a store exists (index.html starts Postgres at once), and
// whose data it holds fully synced (a repeat visit then shows it without checking first).
// Storage can be refused (private mode): then nothing is remembered and every visit checks.
import { STORE_HINT } from './boot-store.ts'

const SYNCED_FOR = 'sluice.synced-for'

/** A store exists in this browser (set when a user's data is claimed, cleared on sign-out). */
export function rememberStore(present: boolean): void {
  write(STORE_HINT, present ? '1' : null)
  if (!present) write(SYNCED_FOR, null)
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
