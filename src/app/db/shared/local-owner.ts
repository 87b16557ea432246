// Whose data the store holds: the one row of local_owner. The sync (worker/sync.ts) follows
// it, emptying the store for a new owner; a tab (tab/store.ts), or the worker on a first
// visit, makes the signed-in user the owner.
import type { PGliteInterface } from '@electric-sql/pglite'

type Queries = Pick<PGliteInterface, 'query'>

/** Makes `userId` the owner (the sync then empties what anyone else's data left). */
export async function claimOwner(pg: Queries, userId: string): Promise<void> {
  // One statement, which writes nothing when the store is theirs already.
  await pg.query(
    `insert into local_owner (user_id) values ($1)
     on conflict (singleton) do update set user_id = excluded.user_id
       where local_owner.user_id is distinct from excluded.user_id`,
    [userId],
  )
}
