// Teams as their members see them. Every read takes the asking user: membership is the only
// way to see a team, and an unknown team and someone else's team look the same (null).
import type { Source, Team, TeamUser } from '../../shared/entities.ts'
import type { Db } from './database.ts'

export async function listTeams(db: Db, userId: string): Promise<Team[]> {
  const { rows } = await db.query<Team>(
    `select t.id, t.name from teams t
       join memberships m on m.team_id = t.id
      where m.user_id = $1
      order by t.created_at, t.name`,
    [userId],
  )
  return rows
}

export async function getTeam(
  db: Db,
  userId: string,
  teamId: string,
): Promise<Team | null> {
  const { rows } = await db.query<Team>(
    `select t.id, t.name from teams t
       join memberships m on m.team_id = t.id
      where m.user_id = $1 and t.id = $2`,
    [userId, teamId],
  )
  return rows[0] ?? null
}

export async function listTeamUsers(
  db: Db,
  userId: string,
  teamId: string,
): Promise<TeamUser[] | null> {
  if (!(await getTeam(db, userId, teamId))) return null
  const { rows } = await db.query<TeamUser>(
    `select u.id, u.name, u.email from users u
       join memberships m on m.user_id = u.id
      where m.team_id = $1
      order by u.name, u.email`,
    [teamId],
  )
  return rows
}

const sourceColumns = `s.id, s.team_id, s.name, s.state, s.region, s.connection_url,
  s.source_secret, to_json(s.deleted_at) #>> '{}' as deleted_at, s.target_electric_url,
  to_json(s.created_at) #>> '{}' as created_at, to_json(s.updated_at) #>> '{}' as updated_at,
  s.state_reason, s.wal_retained_bytes::float8 as wal_retained_bytes,
  s.wal_lag_bytes::float8 as wal_lag_bytes, s.wal_status,
  to_json(s.health_checked_at) #>> '{}' as health_checked_at`

/** Sources of every team the user belongs to; passwords are never selected. */
export async function listSources(db: Db, userId: string): Promise<Source[]> {
  const { rows } = await db.query<Source>(
    `select ${sourceColumns} from sources s
       join memberships m on m.team_id = s.team_id
      where m.user_id = $1
      order by s.created_at`,
    [userId],
  )
  return rows
}
