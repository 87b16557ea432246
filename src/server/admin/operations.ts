// The admin tool's operations, once: the CLI (run.ts) and /api/admin (routes.ts) are thin
// adapters that parse their own syntax into these inputs and print or send what they return.
// Every write goes to the same tables the dashboard's shapes read, so open dashboards see it
// live through the engine's replication of the control plane.
import { z } from 'zod'
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH } from '../../shared/constants.ts'
import type { Db } from '../platform/db/database.ts'
import {
  addMembership,
  createTeam,
  listAllTeams,
  removeMembership,
  teamExists,
} from '../teams/teams.ts'
import {
  createUser,
  getAdminUser,
  listUsers,
  updateUser,
  type AdminUser,
} from '../auth/users.ts'
import { NUL_REFUSED, safeParseRequest } from '../platform/http/nul.ts'

/** `invalid`: the input (exit 2, HTTP 400); `not_found` (exit 1, 404); `conflict` (1, 409). */
export class AdminError extends Error {
  constructor(
    readonly kind: 'invalid' | 'not_found' | 'conflict',
    message: string,
  ) {
    super(message)
  }
}

const id = (what: string) => z.uuid(`${what} must be a UUID`)
const name = z
  .string()
  .trim()
  .min(1, 'name must not be empty')
  .max(NAME_MAX_LENGTH, `name must be at most ${NAME_MAX_LENGTH} characters`)
const email = z
  .string()
  .trim()
  .max(EMAIL_MAX_LENGTH, `email must be at most ${EMAIL_MAX_LENGTH} characters`)
  .pipe(z.email('email must be a valid email address'))

export const adminSchemas = {
  teamsCreate: z.strictObject({ name }),
  teamsList: z.strictObject({}),
  membership: z.strictObject({ team: id('team'), user: id('user') }),
  usersCreate: z.strictObject({
    name,
    email,
    team: id('team').optional(),
  }),
  usersUpdate: z
    .strictObject({
      id: id('user'),
      name: name.optional(),
      email: email.optional(),
    })
    .refine((v) => v.name !== undefined || v.email !== undefined, {
      message: 'give --name or --email (or both) to change',
    }),
  usersList: z.strictObject({ email: email.optional() }),
}

type Input<K extends keyof typeof adminSchemas> = z.infer<
  (typeof adminSchemas)[K]
>

/** Parses an adapter's input; a failure is an `invalid` AdminError naming the field. */
export function parseAdminInput<K extends keyof typeof adminSchemas>(
  key: K,
  raw: unknown,
): Input<K> {
  return parseWith<unknown>(adminSchemas[key], raw) as Input<K>
}

/** parseAdminInput for a schema of another admin module (claimable-sources.ts). */
export function parseWith<T>(schema: z.ZodType<T, unknown>, raw: unknown): T {
  const parsed = safeParseRequest(schema, raw)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const field = issue?.path.join('.')
  const message =
    issue?.message === NUL_REFUSED
      ? `${field} ${NUL_REFUSED}`
      : issue?.code === 'unrecognized_keys'
        ? `unknown option: ${issue.keys.join(', ')}`
        : // What is absent (or not text) is named, rather than zod's "expected string".
          issue?.code === 'invalid_type' && field
          ? `${field} is required`
          : (issue?.message ?? 'invalid input')
  throw new AdminError('invalid', message)
}

async function mustFindTeam(db: Db, teamId: string) {
  if (!(await teamExists(db, teamId)))
    throw new AdminError('not_found', `no team with id ${teamId}`)
}

async function mustFindUser(db: Db, userId: string): Promise<AdminUser> {
  const user = await getAdminUser(db, userId)
  if (!user) throw new AdminError('not_found', `no user with id ${userId}`)
  return user
}

async function refuseTakenEmail(db: Db, address: string, except?: string) {
  const taken = (await listUsers(db, address)).find((u) => u.id !== except)
  if (taken)
    throw new AdminError(
      'conflict',
      `a user with email ${address} already exists (${taken.id})`,
    )
}

export const admin = {
  teamsCreate: (db: Db, input: Input<'teamsCreate'>) =>
    createTeam(db, input.name),

  teamsList: (db: Db) => listAllTeams(db),

  async teamsAddUser(db: Db, input: Input<'membership'>) {
    await mustFindTeam(db, input.team)
    await mustFindUser(db, input.user)
    const added = await addMembership(db, input.team, input.user)
    return { team_id: input.team, user_id: input.user, added }
  },

  async teamsRemoveUser(db: Db, input: Input<'membership'>) {
    await mustFindTeam(db, input.team)
    await mustFindUser(db, input.user)
    const removed = await removeMembership(db, input.team, input.user)
    if (!removed)
      throw new AdminError(
        'not_found',
        `user ${input.user} is not a member of team ${input.team}`,
      )
    return { team_id: input.team, user_id: input.user, removed }
  },

  async usersCreate(db: Db, input: Input<'usersCreate'>) {
    if (input.team) await mustFindTeam(db, input.team)
    await refuseTakenEmail(db, input.email)
    const userId = await createUser(db, input)
    if (input.team) await addMembership(db, input.team, userId)
    return mustFindUser(db, userId)
  },

  async usersUpdate(db: Db, input: Input<'usersUpdate'>) {
    await mustFindUser(db, input.id)
    if (input.email) await refuseTakenEmail(db, input.email, input.id)
    await updateUser(db, input.id, input)
    return mustFindUser(db, input.id)
  },

  usersList: (db: Db, input: Input<'usersList'>) => listUsers(db, input.email),
}
