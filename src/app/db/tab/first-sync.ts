// A first visit waits (briefly) until the user's rows and each team's lists have synced once,
// so pages never show "Team not found" for data still on its way. Later visits pass at once,
// and their sync starts after the stored rows are on screen.
import { firstReadsShown } from './first-reads.ts'
import { flushStore, readOnce } from './direct-requests.ts'
import { rememberSyncedFor, syncedFor } from './hints.ts'
import { saveLastScreen } from './last-screen.ts'
import { acrossLeaderChange, startSyncing, type LocalStore } from './store.ts'
import { syncedOnce } from '../shared/synced-once.ts'
import { storeSynced } from './worker-thread.ts'

const FIRST_SYNC_LIMIT_MS = 15_000
const CHECK_EVERY_MS = 50

// Polled every 50 ms on a first visit: one-off reads, one message each (direct-requests.ts).
// Read again when the holder's tab closes meanwhile (store.ts).
const synced = (store: LocalStore, userId: string) =>
  acrossLeaderChange(() =>
    syncedOnce((sql, params) => readOnce(store, sql, params), userId),
  )

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
  // The worker started the sync on its own (store.ts startFirstSync), and it may be done
  // already. What it does once this screen shows (START_SYNC) waits.
  let seen = (await Promise.all([synced(store, userId), claimed]))[0]
  const deadline = Date.now() + FIRST_SYNC_LIMIT_MS
  while (!seen && Date.now() < deadline) {
    // This tab's worker says so as soon as it is (when it holds the store); otherwise a check.
    const said = await Promise.race([
      new Promise<false>((resolve) =>
        setTimeout(() => resolve(false), CHECK_EVERY_MS),
      ),
      storeSynced(userId).then(() => true),
    ])
    seen = said || (await synced(store, userId))
  }
  startSyncingAfterPaint()
  if (!seen) return
  performance.mark('sluice:first-sync-seen')
  saveAfterFirstScreen(store, userId)
}

// What the user sees is written to IndexedDB right after it shows (not before: writing back
// a new store, about 9 MB, took 0.1-0.3 s of the worker that also answers the screen's first
// reads). Only then is the store remembered as synced for them, and their last screen kept
// (last-screen.ts): a tab closed or reloaded in that moment loses nothing on the server, and
// its next visit is a first one again, never one that trusts a store that was not kept.
// `sluice:store-saved` tells bench:web the store is kept.
function saveAfterFirstScreen(store: LocalStore, userId: string) {
  void firstReadsShown()
    .then(() => flushStore(store))
    .then(
      () => {
        rememberSyncedFor(userId)
        saveLastScreen()
        performance.mark('sluice:store-saved')
      },
      (error: unknown) =>
        console.warn('The local store could not be saved', error),
    )
}

// After the next paint, once the page's first reads are on screen (first-reads.ts). A
// background tab paints nothing, so a timer makes sure it starts.
function startSyncingAfterPaint() {
  requestAnimationFrame(() =>
    setTimeout(() => void firstReadsShown().then(startSyncing)),
  )
  setTimeout(startSyncing, 1000)
}
