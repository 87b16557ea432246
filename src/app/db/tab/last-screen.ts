// The rows the dashboard's reads showed last, so the next visit shows them while Postgres
// opens.
//
// A repeat visit's rows come from the local store, and opening it (Postgres's start, reading
// its files from IndexedDB) takes most of a second. The rows it would show first are the ones
// the last visit showed: each read of the store (first-reads.ts) remembers its latest rows
// here, and the next visit's reads start from them, until the store's own arrive a moment
// later. Nothing here is new data: it is what the store held, kept smaller and readable at
// once (localStorage).
//
// Only for the user whose synced data the store holds (hints.ts syncedFor), checked when rows
// are kept, written and used, and forgotten with it (hints.ts): on sign-out, and when the
// store changes hands. Secrets are never kept (a column named like `source_secret` is blanked), and
// a read with many rows (an event log) is not kept at all.
import { LAST_SCREEN as KEY, syncedFor } from './hints.ts'

// A read past this many rows, or this long as JSON, is not kept; nor are reads past the
// total, oldest first.
const ROWS_AT_MOST = 200
const READ_AT_MOST = 32 * 1024
const TOTAL_AT_MOST = 256 * 1024
const WRITE_DELAY_MS = 500

type Rows = Record<string, unknown>[]
type Kept = { owner: string; reads: Record<string, Rows> }

let kept: Kept | null | undefined
let writing: ReturnType<typeof setTimeout> | null = null

// Whose screen this tab shows: the signed-in user (set by the dashboard's route).
let shownFor: string | null = null

export function showScreenOf(userId: string): void {
  shownFor = userId
}

/** The rows `key` showed last; undefined if none are kept. */
export function lastRows(key: string): Rows | undefined {
  const screen = current()
  return screen?.reads[key]
}

/** Whether anything is kept for `owner`: their next screen can show before the store opens. */
export function hasLastScreen(owner: string): boolean {
  if (syncedFor() !== owner) return false
  const screen = load()
  return screen?.owner === owner && Object.keys(screen.reads).length > 0
}

/**
 * `rows` are the store's latest answer to `key` (a read scoped to the store's owner). Written
 * once the store is synced for them, and kept (saved) in IndexedDB: a first visit's rows wait
 * for saveLastScreen.
 */
export function keepRows(key: string, rows: Rows): void {
  const owner = shownFor
  if (owner == null) return
  const json = rows.length <= ROWS_AT_MOST ? serialize(rows) : null
  const screen = load()
  const reads: Record<string, Rows> =
    screen?.owner === owner ? { ...screen.reads } : {}
  // Re-inserted: the object's key order is the order of the latest writes.
  delete reads[key]
  if (json && json.length <= READ_AT_MOST) reads[key] = JSON.parse(json) as Rows
  kept = { owner, reads }
  if (writing) return
  writing = setTimeout(write, WRITE_DELAY_MS)
  // A tab closed before then still leaves them (localStorage writes at once).
  addEventListener('pagehide', write, { once: true })
}

// What is kept for the user this tab shows, if the store is synced for them.
function current(): Kept | null {
  const owner = shownFor
  if (owner == null || syncedFor() !== owner) return null
  const screen = load()
  return screen?.owner === owner ? screen : null
}

function load(): Kept | null {
  if (kept !== undefined) return kept
  try {
    const text = localStorage.getItem(KEY)
    kept = text ? (JSON.parse(text) as Kept) : null
  } catch {
    kept = null
  }
  return kept
}

/** The store is saved and synced for the user shown: what their screen showed is written. */
export function saveLastScreen(): void {
  if (kept) write()
}

function write() {
  if (writing) clearTimeout(writing)
  removeEventListener('pagehide', write)
  writing = null
  const screen = kept
  // Gone in between (sign-out), or no longer this user's (another tab signed someone in).
  if (!screen || syncedFor() !== screen.owner) return
  const entries = Object.entries(screen.reads)
  let text = JSON.stringify({ owner: screen.owner, reads: screen.reads })
  while (text.length > TOTAL_AT_MOST && entries.length > 0) {
    entries.shift()
    text = JSON.stringify({
      owner: screen.owner,
      reads: Object.fromEntries(entries),
    })
  }
  try {
    localStorage.setItem(KEY, text)
  } catch {
    // Full or refused: the next visit waits for the store, as without this.
  }
}

// Dates as ISO text (the hooks take either), big integers as text, secrets blanked (empty
// text: the screen shows a mask and offers nothing to copy until the store's rows arrive).
function serialize(rows: Rows): string {
  return JSON.stringify(rows, (name, value: unknown) => {
    if (/secret/i.test(name)) return ''
    if (typeof value === 'bigint') return value.toString()
    return value
  })
}
