// Teams as their members see them. Every read takes the asking user: membership is the only
// way to see a team, and an unknown team and someone else's team look the same (null).
import type { Team, TeamUser } from '../../shared/entities.ts'
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
