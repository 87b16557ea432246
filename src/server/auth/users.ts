// People and their sign-in identities.
import type { AuthUser, User } from '../../shared/entities.ts'
import type pg from 'pg'
import { transaction, type Db } from '../platform/db/database.ts'

export type IdentityInput = {
  provider: 'github' | 'google' | 'local'
  subject: string
  email: string
  name: string
}

/**
 * Finds the user behind a provider identity, or creates the user with a personal team on
 * first sign-in. Users who have signed in are never matched by email: that would let whoever
 * controls an address at one provider take over an account made with another. The one match
 * by email is an invited user (claimInvitedUser). `created` is true on a user's first sign-in.
 */
export async function signInIdentity(
  db: Db,
  identity: IdentityInput,
): Promise<AuthUser & { created: boolean }> {
  return transaction(db, async (client) => {
    // Two first sign-ins of one identity at once must not make two users.
    await client.query('select pg_advisory_xact_lock(hashtext($1))', [
      `identity:${identity.provider}:${identity.subject}`,
    ])
    const found = await client.query<AuthUser>(
      `update identities i set email = $3
         from users u
        where i.provider = $1 and i.subject = $2 and u.id = i.user_id
       returning u.id, u.email, u.name`,
      [identity.provider, identity.subject, identity.email],
    )
    if (found.rows[0]) return { ...found.rows[0], created: false }
    const invited = await claimInvitedUser(client, identity)
    if (invited) return { ...invited, created: true }

    const owner = ownerName(identity)
    const user = await client.query<AuthUser>(
      `insert into users (name, email) values ($1, $2) returning id, email, name`,
      [identity.name, identity.email],
    )
    const created = user.rows[0]!
    await givePersonalTeam(client, created.id, owner)
    await linkIdentity(client, created.id, identity)
    return { ...created, created: true }
  })
}

/**
 * A user the admin tool made (`users create`) has no identity until its person signs in. The
 * first GitHub or Google sign-in whose verified address is that user's email (in any case)
 * becomes its identity, once: from then on the user is found by that identity only. Both
 * providers hand over verified addresses only (auth/providers.ts). Local sign-in claims one
 * too: it exists only on a machine with no provider and outside hosted mode, where an email
 * already is the whole sign-in (its subject is the address).
 */
async function claimInvitedUser(
  client: pg.PoolClient,
  identity: IdentityInput,
): Promise<AuthUser | null> {
  // Two providers' first sign-ins with one address must not both claim the user.
  await client.query('select pg_advisory_xact_lock(hashtext($1))', [
    `invited:${identity.email.toLowerCase()}`,
  ])
  const { rows } = await client.query<AuthUser>(
    `select u.id, u.email, u.name from users u
      where lower(u.email) = lower($1)
        and not exists (select 1 from identities i where i.user_id = u.id)
      order by u.created_at limit 1
      for update`,
    [identity.email],
  )
  const invited = rows[0]
  if (!invited) return null
  await linkIdentity(client, invited.id, identity)
  const teams = await client.query(
    'select 1 from memberships where user_id = $1 limit 1',
    [invited.id],
  )
  // Invited without a team: the same start as anyone else's first sign-in.
  if (teams.rowCount === 0)
    await givePersonalTeam(client, invited.id, ownerName(invited))
  return invited
}

function ownerName(user: { name: string; email: string }): string {
  // Team names are capped at 200 characters; leave room for the suffix.
  return (user.name || user.email.split('@')[0] || 'My').slice(0, 193)
}

async function givePersonalTeam(
  client: pg.PoolClient,
  userId: string,
  owner: string,
) {
  const team = await client.query<{ id: string }>(
    'insert into teams (name) values ($1) returning id',
    [`${owner}'s team`],
  )
  const teamId = team.rows[0]!.id
  await client.query('update users set team_id = $2 where id = $1', [
    userId,
    teamId,
  ])
  await client.query(
    `insert into memberships (team_id, user_id, role) values ($1, $2, 'owner')`,
    [teamId, userId],
  )
}

async function linkIdentity(
  client: pg.PoolClient,
  userId: string,
  identity: IdentityInput,
) {
  await client.query(
    `insert into identities (provider, subject, user_id, email)
     values ($1, $2, $3, $4)`,
    [identity.provider, identity.subject, userId, identity.email],
  )
}

export async function getUser(db: Db, userId: string): Promise<User | null> {
  const { rows } = await db.query<User>(
    `select id, name, email, team_id, to_json(created_at) #>> '{}' as created_at
       from users where id = $1`,
    [userId],
  )
  return rows[0] ?? null
}

/** A user as the admin tool lists them: with the teams they belong to. */
export type AdminUser = User & { teams: string[] }

const adminUserColumns = `u.id, u.name, u.email, u.team_id,
  to_json(u.created_at) #>> '{}' as created_at,
  coalesce((select array_agg(m.team_id::text order by m.created_at)
              from memberships m where m.user_id = u.id), '{}') as teams`

/** A user made by the admin tool: no identity yet and no personal team. */
export async function createUser(
  db: Db,
  input: { name: string; email: string },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    'insert into users (name, email) values ($1, $2) returning id',
    [input.name, input.email],
  )
  return rows[0]!.id
}

/** Changes the given fields; false when there is no such user. */
export async function updateUser(
  db: Db,
  userId: string,
  changes: { name?: string; email?: string },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `update users set name = coalesce($2, name), email = coalesce($3, email)
      where id = $1`,
    [userId, changes.name ?? null, changes.email ?? null],
  )
  return rowCount === 1
}

export async function getAdminUser(
  db: Db,
  userId: string,
): Promise<AdminUser | null> {
  const { rows } = await db.query<AdminUser>(
    `select ${adminUserColumns} from users u where u.id = $1`,
    [userId],
  )
  return rows[0] ?? null
}

/** Every user, or those whose email is `email` (case-insensitive). */
export async function listUsers(db: Db, email?: string): Promise<AdminUser[]> {
  const { rows } = await db.query<AdminUser>(
    `select ${adminUserColumns} from users u
      where $1::text is null or lower(u.email) = lower($1)
      order by u.created_at, u.email`,
    [email ?? null],
  )
  return rows
}
