// The admin tool (`npm run admin -- <command>`, cli.ts): teams, users, setup links and
// claimable sources on the control plane `npm start` uses (through control/attach.ts). Text by
// default, JSON with --json. Answers its exit code: 0 on success, 1 when the operation failed
// (not found, conflict, no database), 2 on bad usage or input. It reads its environment and
// writes its output only through `io`, so tests run it in their own process.
import { parseArgs } from 'node:util'
import { readSecretOption, type SecretOption } from '../../engine/index.ts'
import { attachControlPlane } from '../platform/db/attach.ts'
import type { Db } from '../platform/db/database.ts'
import type { AdminTeam } from '../teams/teams.ts'
import type { AdminUser } from '../auth/users.ts'
import { EnvError, type Env } from '../platform/env.ts'
import { claimableSourceCommands } from '../claimable-sources/admin.ts'
import { AdminError, admin, parseAdminInput } from './operations.ts'
import { cliOrigin } from './origin.ts'
import {
  parseSetupFormInput,
  setupFormOperations as setupForms,
  setupFormText,
} from '../setup-links/admin.ts'

const USAGE = `Usage: npm run admin -- <command> [options] [--json]

Teams:
  teams create --name NAME
  teams list
  teams add-user --team TEAM_ID --user USER_ID
  teams remove-user --team TEAM_ID --user USER_ID

Users:
  users create --name NAME --email EMAIL [--team TEAM_ID]
  users update USER_ID [--name NAME] [--email EMAIL]
  users list [--email EMAIL]

Setup links (one-time links that add a source to a team):
  setup-forms create --team TEAM_ID [--region REGION] [--expires-in 7d]
  setup-forms list --team TEAM_ID
  setup-forms delete SETUP_FORM_ID

Claimable sources:
  claimable-sources create --database-url-file PATH [--region REGION] [--claim-link URL]
  claimable-sources list
  The URL holds a password: give it in a file, or as SOURCE_DATABASE_URL in the environment.
  --database-url URL also works, but shows it in ps to every user of the machine.

Options:
  --json   print the result as JSON (errors too, on stderr)
  --help   show this help

Uses DATA_DIR or DATABASE_URL like npm start; works while the server runs.
Setup links are on PUBLIC_URL; when it is unset, on the address the server last listened on
(recorded in DATA_DIR), or http://localhost:PORT.
claimable-sources create seals the password with the server's secret (SLUICE_SECRET or
DATA_DIR/secret) and prints the claim URL on the same origin as setup links.
Exit codes: 0 done, 1 the operation failed, 2 bad usage or input.`

type Values = Record<string, string | undefined>

type Command = {
  options: string[]
  /** Options that hold a secret: each also read from `--NAME-file` or a variable. */
  secrets?: SecretOption[]
  /** The command takes one positional argument (an id) after its name. */
  takesId?: boolean
  /** Checks the input before any database is touched; throws an `invalid` AdminError. */
  parse(values: Values, id?: string): unknown
  /**
   * `origin`: where links the command prints point (setup-forms.ts, cliOrigin); `env`: the
   * tool's environment, for a command that needs more of it (the secret, the limits).
   */
  run(db: Db, input: never, origin: string, env: Env): Promise<unknown>
  text(result: never): string
}

const userLine = (u: AdminUser) =>
  `${u.id}  ${u.email}  ${u.name || '-'}  teams: ${u.teams.join(', ') || '-'}`
const teamLine = (t: AdminTeam) =>
  `${t.id}  ${t.name}  (${t.members} member${t.members === 1 ? '' : 's'})`
const membership = (v: Values) =>
  parseAdminInput('membership', { team: v.team, user: v.user })
type Membership = { team_id: string; user_id: string; added?: boolean }

const COMMANDS: Record<string, Command> = {
  'teams create': {
    options: ['name'],
    parse: (v) => parseAdminInput('teamsCreate', { name: v.name }),
    run: admin.teamsCreate,
    text: (t: AdminTeam) => `Created team ${t.name} (${t.id})`,
  },
  'teams list': {
    options: [],
    parse: () => ({}),
    run: admin.teamsList,
    text: (teams: AdminTeam[]) =>
      teams.length ? teams.map(teamLine).join('\n') : 'No teams.',
  },
  'teams add-user': {
    options: ['team', 'user'],
    parse: membership,
    run: admin.teamsAddUser,
    text: (r: Membership) =>
      r.added
        ? `Added user ${r.user_id} to team ${r.team_id}`
        : `User ${r.user_id} was already a member of team ${r.team_id}`,
  },
  'teams remove-user': {
    options: ['team', 'user'],
    parse: membership,
    run: admin.teamsRemoveUser,
    text: (r: Membership) => `Removed user ${r.user_id} from team ${r.team_id}`,
  },
  'users create': {
    options: ['name', 'email', 'team'],
    parse: (v) =>
      parseAdminInput('usersCreate', {
        name: v.name,
        email: v.email,
        team: v.team,
      }),
    run: admin.usersCreate,
    text: (u: AdminUser) => `Created user ${userLine(u)}`,
  },
  'users update': {
    options: ['name', 'email'],
    takesId: true,
    parse: (v, id) =>
      parseAdminInput('usersUpdate', { id, name: v.name, email: v.email }),
    run: admin.usersUpdate,
    text: (u: AdminUser) => `Updated user ${userLine(u)}`,
  },
  'users list': {
    options: ['email'],
    parse: (v) => parseAdminInput('usersList', { email: v.email }),
    run: admin.usersList,
    text: (users: AdminUser[]) =>
      users.length ? users.map(userLine).join('\n') : 'No users.',
  },
  'setup-forms create': {
    options: ['team', 'region', 'expires-in'],
    parse: (v) =>
      parseSetupFormInput('setupFormsCreate', {
        team: v.team,
        region: v.region,
        expiresIn: v['expires-in'],
      }),
    run: setupForms.setupFormsCreate,
    text: setupFormText.created,
  },
  'setup-forms list': {
    options: ['team'],
    parse: (v) => parseSetupFormInput('setupFormsList', { team: v.team }),
    run: setupForms.setupFormsList,
    text: setupFormText.list,
  },
  'setup-forms delete': {
    options: [],
    takesId: true,
    parse: (_v, id) => parseSetupFormInput('setupFormsDelete', { id }),
    run: setupForms.setupFormsDelete,
    text: setupFormText.deleted,
  },
  ...claimableSourceCommands,
}

type Parsed =
  | { help: true }
  | { help: false; json: boolean; command: Command; input: unknown }

/** Reads argv into a command; bad usage throws an `invalid` AdminError. */
function parseCommandLine(args: string[], io: AdminIo): Parsed {
  const json = args.includes('--json')
  if (args.includes('--help') || args.includes('-h')) return { help: true }
  const [group, action] = args
  const name = `${group ?? ''} ${action ?? ''}`
  const command = COMMANDS[name]
  if (!group || group.startsWith('-'))
    throw new AdminError('invalid', 'no command given')
  if (!command)
    throw new AdminError('invalid', `unknown command: ${action ? name : group}`)
  let parsed
  try {
    parsed = parseArgs({
      args: args.slice(2),
      allowPositionals: true,
      strict: true,
      options: Object.fromEntries([
        ['json', { type: 'boolean' }],
        ...command.options.map((o) => [o, { type: 'string' }]),
        ...(command.secrets ?? []).map((o) => [
          `${o.name}-file`,
          { type: 'string' },
        ]),
      ]),
    })
  } catch (error) {
    // parseArgs names the flag: "Unknown option '--x'", "Option '--name <value>' argument missing"
    throw new AdminError('invalid', (error as Error).message)
  }
  const max = command.takesId ? 1 : 0
  if (parsed.positionals.length > max)
    throw new AdminError(
      'invalid',
      `unexpected argument: ${parsed.positionals[max]}`,
    )
  if (command.takesId && parsed.positionals.length === 0)
    throw new AdminError(
      'invalid',
      `${name} needs the ${group === 'users' ? "user's" : "setup form's"} id`,
    )
  const values = parsed.values as Values
  for (const secret of command.secrets ?? [])
    values[secret.name] = readSecret(secret, values, io, json)
  const input = command.parse(values, parsed.positionals[0])
  return { help: false, json, command, input }
}

function readSecret(
  secret: SecretOption,
  values: Values,
  io: AdminIo,
  json: boolean,
): string | undefined {
  const read = readSecretOption(secret, values, io.vars)
  if (!read.ok) throw new AdminError('invalid', read.error)
  if (read.warning)
    io.err(
      json
        ? JSON.stringify({ warning: read.warning })
        : `warning: ${read.warning}`,
    )
  return read.value
}

export type AdminIo = {
  /** The environment, parsed (env.ts); throws an EnvError naming a bad variable. */
  env(): Env
  /** The environment as it is, for a secret a command takes from it (SOURCE_DATABASE_URL). */
  vars: Record<string, string | undefined>
  /** Standard output and error, a line each call. */
  out(line: string): void
  err(line: string): void
}

export async function runAdmin(args: string[], io: AdminIo): Promise<number> {
  const json = args.includes('--json')
  const fail = (kind: string, message: string, code: number) => {
    io.err(
      json
        ? JSON.stringify({ error: { kind, message } })
        : `error: ${message}${code === 2 ? '\n\nRun with --help for usage.' : ''}`,
    )
    return code
  }
  let parsed: Parsed
  try {
    parsed = parseCommandLine(args, io)
  } catch (error) {
    return fail('invalid', (error as Error).message, 2)
  }
  if (parsed.help) {
    io.out(USAGE)
    return 0
  }
  let control
  let origin
  let env
  try {
    env = io.env()
    origin = cliOrigin(env)
    control = await attachControlPlane(env)
  } catch (error) {
    const message =
      error instanceof EnvError ? error.message : (error as Error).message
    return fail('unavailable', message, 1)
  }
  try {
    const result = await parsed.command.run(
      control.db,
      parsed.input as never,
      origin,
      env,
    )
    io.out(
      parsed.json
        ? JSON.stringify(result, null, 2)
        : parsed.command.text(result as never),
    )
    return 0
  } catch (error) {
    if (error instanceof AdminError)
      return fail(error.kind, error.message, error.kind === 'invalid' ? 2 : 1)
    return fail('failed', (error as Error).message, 1)
  } finally {
    await control.close().catch(() => {})
  }
}
