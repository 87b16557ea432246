// The claim page's wait for the source it claimed (like every write, it waits for the synced row
// rather than showing the change first): the public page has no store open, so this opens it for
// the signed-in user and lets the sync run as the dashboard would (store.ts), then waits for the
// source's row. The dashboard it navigates to then finds the store theirs and the source in it.
import { awaitCreated } from '../shared/await-txid.ts'
import { claimStore, startFirstSync, startSyncing } from './store.ts'

export async function awaitClaimedSource(
  userId: string,
  sourceId: string,
  txid: number,
): Promise<void> {
  // A browser that never synced this user's data asks for their snapshots now; one that did
  // resumes its sync once the store is theirs. Each is a no-op when already under way.
  startFirstSync(userId)
  const store = await claimStore(userId)
  startSyncing()
  await awaitCreated(store, 'sources', sourceId, txid)
}
