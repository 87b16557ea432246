// Sources in the control plane as the API and the runtime both need them. Every read for a
// caller goes through the teams it may see (auth/viewer.ts: a member's teams, or an API token's
// one team): someone else's source and a missing one look the same (null), and a claimable
// source, in no team until claimed, is nobody's.
import type { Source } from '../../shared/entities.ts'
import type { SourceEventName } from '../../shared/sources.ts'
import type { Db } from '../platform/db/database.ts'
import { teamsOf, type Viewer } from '../auth/viewer.ts'

type Queryable = Pick<Db, 'query'>

const sourceColumns = `s.id, s.team_id, s.name, s.project, s.environment, s.state, s.region, s.connection_url,
  s.source_secret, to_json(s.deleted_at) #>> '{}' as deleted_at, s.target_electric_url,
  to_json(s.created_at) #>> '{}' as created_at, to_json(s.updated_at) #>> '{}' as updated_at,
  s.state_reason, s.wal_retained_bytes::float8 as wal_retained_bytes,
  s.wal_lag_bytes::float8 as wal_lag_bytes, s.wal_status,
  to_json(s.health_checked_at) #>> '{}' as health_checked_at,
  s.wal_forecast_seconds::float8 as wal_forecast_seconds, s.previous_source_secret,
  to_json(s.previous_secret_valid_until) #>> '{}' as previous_secret_valid_until`

/** Sources of every team the viewer may see; passwords are never selected. */
export async function listSources(db: Db, viewer: Viewer): Promise<Source[]> {
  const [teams, scope] = teamsOf(viewer, 1)
  const { rows } = await db.query<Source>(
    `select ${sourceColumns} from sources s
      where s.team_id in (${teams})
      order by s.created_at`,
    [scope],
  )
  return rows
}

/** One source the viewer may see, as listSources has it; null for any other. */
export async function getSource(
  db: Db,
  viewer: Viewer,
  sourceId: string,
): Promise<Source | null> {
  const [teams, scope] = teamsOf(viewer, 2)
  const { rows } = await db.query<Source>(
    `select ${sourceColumns} from sources s
      where s.id = $1 and s.team_id in (${teams})`,
    [sourceId, scope],
  )
  return rows[0] ?? null
}

export type MemberSource = {
  id: string
  team_id: string
  state: string
  deleted_at: string | null
}

export async function findMemberSource(
  db: Queryable,
  viewer: Viewer,
  sourceId: string,
): Promise<MemberSource | null> {
  const [teams, scope] = teamsOf(viewer, 2)
  const { rows } = await db.query<MemberSource>(
    `select s.id, s.team_id, s.state, to_json(s.deleted_at) #>> '{}' as deleted_at
       from sources s
      where s.id = $1 and s.team_id in (${teams})`,
    [sourceId, scope],
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
