// Whose data the store holds: the one row of local_owner. The sync (worker/sync.ts) follows
// it, emptying the store for a new owner; a tab (tab/store.ts), or the worker on a first
// visit, makes the signed-in user the owner.
import type { PGliteInterface } from '@electric-sql/pglite'

type Queries = Pick<PGliteInterface, 'query'>

/** Makes `userId` the owner; resolves to whether the store was someone else's (or nobody's). */
export async function claimOwner(
  pg: Queries,
  userId: string,
): Promise<boolean> {
  // Usually it already is theirs: a read then, not a write.
  const { rows } = await pg.query<{ user_id: string }>(
    'select user_id from local_owner',
  )
  if (rows[0]?.user_id === userId) return false
  await pg.query(
    `insert into local_owner (user_id) values ($1)
     on conflict (singleton) do update set user_id = excluded.user_id`,
    [userId],
  )
  return true
}
