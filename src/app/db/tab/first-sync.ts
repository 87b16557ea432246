// A first visit waits (briefly) until the user's rows and each team's lists have synced once,
// so pages never show "Team not found" for data still on its way. Later visits pass at once,
// and their sync starts after the stored rows are on screen.
import { firstReadsShown } from './first-reads.ts'
import { flushStore, readOnce } from './direct-requests.ts'
import { rememberSyncedFor, syncedFor } from './hints.ts'
import { startSyncing, type LocalStore } from './store.ts'
import { syncedOnce } from './synced-once.ts'

const FIRST_SYNC_LIMIT_MS = 15_000
const CHECK_EVERY_MS = 50

// Polled every 50 ms on a first visit: one-off reads, one message each (direct-requests.ts).
const synced = (store: LocalStore, userId: string) =>
  syncedOnce((sql, params) => readOnce(store, sql, params), userId)

/**
 * `claimed`: the store being made this user's (store.ts claimStore). The check only reads, so
 * it runs meanwhile; the sync starts after the claim, so it never syncs for the previous owner.
 */
export async function waitForFirstSync(
  store: LocalStore,
  userId: string,
  claimed: Promise<unknown>,
): Promise<void> {
  // A repeat visit in a browser that has synced this user's data before: the page reads it
  // at once (its reads queue behind the claim, which changes nothing then), and the sync
  // catches up after the claim and the first paint.
  if (syncedFor() === userId) {
    claimed.then(startSyncingAfterPaint, (error: unknown) =>
      // The page's own reads report the store's failure; the sync cannot start without it.
      console.error('The local store could not be claimed', error),
    )
    return
  }
  const [ready] = await Promise.all([synced(store, userId), claimed])
  if (ready) {
    rememberSyncedFor(userId)
    return startSyncingAfterPaint()
  }
  startSyncing()
  const deadline = Date.now() + FIRST_SYNC_LIMIT_MS
  while (Date.now() < deadline) {
    if (await synced(store, userId)) {
      rememberSyncedFor(userId)
      performance.mark('sluice:first-sync-seen')
      // What the user is about to see is in IndexedDB before it shows, so it is there offline
      // even if the tab is closed at once. (Not waiting gains nothing: the worker that writes
      // it back is the one that answers the screen's first reads.)
      await flushStore(store)
      return
    }
    await new Promise((resolve) => setTimeout(resolve, CHECK_EVERY_MS))
  }
}

// After the next paint, once the page's first reads are on screen (first-reads.ts). A
// background tab paints nothing, so a timer makes sure it starts.
function startSyncingAfterPaint() {
  requestAnimationFrame(() =>
    setTimeout(() => void firstReadsShown().then(startSyncing)),
  )
  setTimeout(startSyncing, 1000)
}
