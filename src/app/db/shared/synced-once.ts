// Whether a user's data has synced into the store once: their row, their team list, and each
// team's sources and members. pglite-sync records a subscription (keys as in sync.ts) in the
// transaction that applies its first up-to-date snapshot, so a recorded key means that list
// has landed, even when it is empty.
type Read = <T>(sql: string, params: unknown[]) => Promise<{ rows: T[] }>

export async function syncedOnce(read: Read, userId: string): Promise<boolean> {
  // pglite-sync creates its metadata table when the sync starts; until then, not ready.
  const started = await read<{ t: string | null }>(
    `select to_regclass('electric.subscriptions_metadata')::text as t`,
    [],
  )
  if (!started.rows[0]?.t) return false
  // Each list lands in its own transaction, the user's row often before the team list: a
  // check on rows alone would pass in between with no team to wait for, and a page could then
  // write to a team whose lists start later.
  const { rows } = await read<{ ready: boolean }>(
    `select (select count(*) from electric.subscriptions_metadata
              where key in ('user:' || $1::text, 'teams:' || $1::text)) = 2
        and not exists (
          select 1 from user_teams t
           where t.user_id = $1::uuid
             and (select count(*) from electric.subscriptions_metadata m
                   where m.key in ('team:' || t.team_id || ':sources',
                                   'team:' || t.team_id || ':team_members')) < 2
        ) as ready`,
    [userId],
  )
  return rows[0]?.ready === true
}
