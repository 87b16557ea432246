// Sign-out's end of the store, in the workers: emptying the tables with DELETE left
// the rows' bytes in Postgres's files in IndexedDB, so the store's database itself goes. The
// worker holding it stops the sync, lets go of the files (store-fs.ts release) and deletes the
// database, then tells every tab, which ends its worker, Postgres with it (tab/store-close.ts).
// Every other worker, told the same, never opens the store; one elected later (the holder's
// tab closed first) deletes it instead.
import {
  CLOSE_STORE,
  STORE_CHANNEL,
  STORE_CLOSED,
} from '../shared/worker-messages.ts'
import { deleteStoreDatabase, LOCAL_DATABASE } from './store-files.ts'

export type StoreClosing = {
  /** Whether a sign-out asked for it: the store must not be opened then. */
  requested: () => boolean
  /** This worker is elected after the request: the database goes (if it is still there). */
  elected: () => void
}

/**
 * Listens for a sign-out. `close` lets go of what this worker holds and answers whether it
 * held the store. Only the holder deletes the database then, its connections closed: a
 * deletion asked by another worker would only wait on them.
 */
export function closeOnRequest(close: () => Promise<boolean>): StoreClosing {
  let closing: Promise<boolean> | null = null
  let deleting: Promise<void> | null = null
  const channel = new BroadcastChannel(STORE_CHANNEL)
  const deleteStore = () => {
    deleting ??= deleteStoreDatabase(LOCAL_DATABASE)
    deleting.then(
      () => channel.postMessage({ type: STORE_CLOSED }),
      (error: unknown) =>
        console.warn('Deleting the local store failed', error),
    )
  }
  channel.onmessage = (event: MessageEvent<{ type?: string } | null>) => {
    if (event.data?.type !== CLOSE_STORE) return
    // A second tab signing out meanwhile is told when the first close is done.
    closing ??= close()
    closing.then(
      (held) => held && deleteStore(),
      (error: unknown) => console.warn('Closing the local store failed', error),
    )
  }
  return {
    requested: () => closing != null,
    elected: () => closing != null && deleteStore(),
  }
}
