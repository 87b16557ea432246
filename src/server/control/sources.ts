// Sources in the control plane as the API and the runtime both need them. Every read for a
// user goes through membership: someone else's source and a missing one look the same (null).
import type { SourceEventName } from '../../shared/sources.ts'
import type { Db } from './database.ts'

type Queryable = Pick<Db, 'query'>

export type MemberSource = {
  id: string
  team_id: string
  state: string
  deleted_at: string | null
}

export async function findMemberSource(
  db: Queryable,
  userId: string,
  sourceId: string,
): Promise<MemberSource | null> {
  const { rows } = await db.query<MemberSource>(
    `select s.id, s.team_id, s.state, to_json(s.deleted_at) #>> '{}' as deleted_at
       from sources s join memberships m on m.team_id = s.team_id
      where s.id = $1 and m.user_id = $2`,
    [sourceId, userId],
  )
  return rows[0] ?? null
}

/** One row of a source's event log. `details` never holds credentials. */
export async function logSourceEvent(
  db: Queryable,
  sourceId: string,
  name: SourceEventName,
  details: Record<string, unknown>,
  instanceId: string,
): Promise<void> {
  await db.query(
    `insert into source_event_logs (source_id, event_name, event_details, instance_id)
     values ($1, $2, $3, $4)`,
    [sourceId, name, JSON.stringify(details), instanceId],
  )
}
