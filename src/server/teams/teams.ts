// Teams as their members see them. Every read takes who is asking (auth/viewer.ts): membership,
// or a team's API token, is the only way to see a team, and an unknown team and someone else's
// team look the same (null).
import type { Team, TeamUser } from '../../shared/entities.ts'
import type pg from 'pg'
import type { Db } from '../platform/db/database.ts'
import { teamsOf, type Viewer } from '../auth/viewer.ts'

export async function listTeams(db: Db, viewer: Viewer): Promise<Team[]> {
  const [teams, scope] = teamsOf(viewer, 1)
  const { rows } = await db.query<Team>(
    `select t.id, t.name from teams t
      where t.id in (${teams})
      order by t.created_at, t.name`,
    [scope],
  )
  return rows
}

export async function getTeam(
  db: Db,
  viewer: Viewer,
  teamId: string,
): Promise<Team | null> {
  const [teams, scope] = teamsOf(viewer, 1)
  const { rows } = await db.query<Team>(
    `select t.id, t.name from teams t where t.id in (${teams}) and t.id = $2`,
    [scope, teamId],
  )
  return rows[0] ?? null
}

export async function listTeamUsers(
  db: Db,
  viewer: Viewer,
  teamId: string,
): Promise<TeamUser[] | null> {
  if (!(await getTeam(db, viewer, teamId))) return null
  const { rows } = await db.query<TeamUser>(
    `select u.id, u.name, u.email from users u
       join memberships m on m.user_id = u.id
      where m.team_id = $1
      order by u.name, u.email`,
    [teamId],
  )
  return rows
}

// The admin tool's side (admin/operations.ts): every team, whoever asks. Never reachable from
// a user's request; only the CLI and the token-guarded /api/admin routes call these.

export type AdminTeam = Team & { created_at: string; members: number }

const adminTeamColumns = `t.id, t.name, to_json(t.created_at) #>> '{}' as created_at,
  (select count(*)::int from memberships m where m.team_id = t.id) as members`

export async function createTeam(db: Db, name: string): Promise<AdminTeam> {
  const { rows } = await db.query<AdminTeam>(
    `with t as (insert into teams (name) values ($1) returning *)
     select ${adminTeamColumns} from t`,
    [name],
  )
  return rows[0]!
}

export async function listAllTeams(db: Db): Promise<AdminTeam[]> {
  const { rows } = await db.query<AdminTeam>(
    `select ${adminTeamColumns} from teams t order by t.created_at, t.name`,
  )
  return rows
}

/**
 * Locks a team's row for a create that counts the team's things, so creates (and claims) for
 * one team queue one after another; false when there is no such team. NO KEY UPDATE leaves
 * alone the foreign-key checks of rows that merely reference the team (memberships, other
 * writes).
 */
export async function lockTeamForCreate(
  client: pg.PoolClient,
  teamId: string,
): Promise<boolean> {
  const { rowCount } = await client.query(
    'select 1 from teams where id = $1 for no key update',
    [teamId],
  )
  return rowCount === 1
}

export async function teamExists(db: Db, teamId: string): Promise<boolean> {
  const { rowCount } = await db.query('select 1 from teams where id = $1', [
    teamId,
  ])
  return rowCount === 1
}

/** Adds a member; false when they already were one (the role they had is kept). */
export async function addMembership(
  db: Db,
  teamId: string,
  userId: string,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `insert into memberships (team_id, user_id, role) values ($1, $2, 'member')
     on conflict do nothing`,
    [teamId, userId],
  )
  return rowCount === 1
}

/** Removes a member; false when they were not one. */
export async function removeMembership(
  db: Db,
  teamId: string,
  userId: string,
): Promise<boolean> {
  const { rowCount } = await db.query(
    'delete from memberships where team_id = $1 and user_id = $2',
    [teamId, userId],
  )
  return rowCount === 1
}
