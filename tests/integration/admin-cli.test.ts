// `npm run admin`: every command in text and --json, bad input and its exit codes, and
// attaching to the embedded Postgres a running server holds under DATA_DIR instead of starting
// (or stopping) another. The tool runs in this process (tests/support/admin-cli.ts); the last
// test runs it as the npm script's child process, its exit codes included.
import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { CONTROL_PLANE_DATABASE } from '../../src/server/platform/db/attach.ts'
import { startEmbeddedPostgres } from '../../src/server/platform/db/embedded-postgres.ts'
import { uniqueEmail } from '../support/app.ts'
import {
  admin as runAdmin,
  adminJson,
  adminProcess,
} from '../support/admin-cli.ts'
import { useControlPlaneDatabase } from '../support/database.ts'

const database = useControlPlaneDatabase()

const admin = (
  args: string[],
  env: Record<string, string> = { DATABASE_URL: database.url },
) => runAdmin(args, env)

const json = adminJson

type Team = { id: string; name: string; members: number }
type User = { id: string; name: string; email: string; teams: string[] }

// A test runs many commands, each opening and closing its own pool.
const SLOW = 60_000

describe('npm run admin', () => {
  it(
    'manages teams and users, in text and in JSON',
    async () => {
      const created = await admin(['teams', 'create', '--name', 'Acme'])
      expect(created.code).toBe(0)
      const teamId = /\(([0-9a-f-]{36})\)/.exec(created.stdout)?.[1] ?? ''
      expect(created.stdout).toBe(`Created team Acme (${teamId})\n`)

      const other = json<Team>(
        await admin(['teams', 'create', '--name', 'Beta', '--json']),
      )
      expect(other).toMatchObject({ name: 'Beta', members: 0 })

      const email = uniqueEmail('cli')
      const user = json<User>(
        await admin([
          'users',
          'create',
          '--name',
          'Grace',
          '--email',
          email,
          '--team',
          teamId,
          '--json',
        ]),
      )
      expect(user).toMatchObject({ name: 'Grace', email, teams: [teamId] })

      const added = await admin([
        'teams',
        'add-user',
        '--team',
        other.id,
        '--user',
        user.id,
      ])
      expect(added.stdout).toBe(`Added user ${user.id} to team ${other.id}\n`)
      const addedJson = json<object>(
        await admin([
          'teams',
          'add-user',
          '--team',
          other.id,
          '--user',
          user.id,
          '--json',
        ]),
      )
      expect(addedJson).toEqual({
        team_id: other.id,
        user_id: user.id,
        added: false,
      })

      const list = await admin(['teams', 'list'])
      expect(list.stdout).toContain(`${teamId}  Acme  (1 member)`)
      const teams = json<Team[]>(await admin(['teams', 'list', '--json']))
      expect(teams.find((t) => t.id === other.id)?.members).toBe(1)

      const removed = await admin([
        'teams',
        'remove-user',
        '--team',
        other.id,
        '--user',
        user.id,
      ])
      expect(removed.stdout).toBe(
        `Removed user ${user.id} from team ${other.id}\n`,
      )
      const removedJson = json<object>(
        await admin([
          'teams',
          'remove-user',
          '--team',
          teamId,
          '--user',
          user.id,
          '--json',
        ]),
      )
      expect(removedJson).toEqual({
        team_id: teamId,
        user_id: user.id,
        removed: true,
      })

      const updated = await admin([
        'users',
        'update',
        user.id,
        '--name',
        'Grace H',
      ])
      expect(updated.stdout).toBe(
        `Updated user ${user.id}  ${email}  Grace H  teams: -\n`,
      )
      const newEmail = uniqueEmail('cli-new')
      expect(
        json<User>(
          await admin([
            'users',
            'update',
            user.id,
            '--email',
            newEmail,
            '--json',
          ]),
        ),
      ).toMatchObject({ email: newEmail, name: 'Grace H' })

      const found = await admin(['users', 'list', '--email', newEmail])
      expect(found.stdout).toBe(`${user.id}  ${newEmail}  Grace H  teams: -\n`)
      expect(
        json<User[]>(await admin(['users', 'list', '--json'])).map((u) => u.id),
      ).toContain(user.id)
      expect(
        (await admin(['users', 'list', '--email', uniqueEmail()])).stdout,
      ).toBe('No users.\n')

      const plain = await admin([
        'users',
        'create',
        '--name',
        'Ada',
        '--email',
        uniqueEmail(),
      ])
      expect(plain.stdout).toMatch(
        /^Created user [0-9a-f-]{36} {2}.+ {2}Ada {2}teams: -\n$/,
      )
    },
    SLOW,
  )

  it(
    'refuses bad usage and input with exit 2 and a clear message, before any database',
    async () => {
      // No database at all: none of these may get as far as connecting.
      const none = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }
      const cases: [string[], string][] = [
        [[], 'no command given'],
        [['bogus'], 'unknown command: bogus'],
        [['teams', 'rename'], 'unknown command: teams rename'],
        [['teams', 'create', '--nam', 'x'], "Unknown option '--nam'"],
        [['teams', 'create'], 'name is required'],
        [['teams', 'create', '--name', ' '], 'name must not be empty'],
        [['teams', 'create', '--name', 'x'.repeat(201)], 'at most 200'],
        [
          ['teams', 'add-user', '--team', 'nope', '--user', randomUUID()],
          'team must be a UUID',
        ],
        [['teams', 'remove-user', '--team', randomUUID()], 'user is required'],
        [
          ['users', 'create', '--name', 'A', '--email', 'not-an-email'],
          'valid email',
        ],
        [['users', 'update', randomUUID()], 'give --name or --email'],
        [['users', 'update', '--name', 'A'], 'needs the user'],
        [['users', 'list', 'extra'], 'unexpected argument: extra'],
      ]
      const runs = await Promise.all(cases.map(([args]) => admin(args, none)))
      runs.forEach((run, i) => {
        const [args, message] = cases[i]!
        expect({ args, code: run.code }).toEqual({ args, code: 2 })
        expect(run.stderr).toContain(message)
        expect(run.stderr).toContain('--help')
        expect(run.stdout).toBe('')
      })
      const asJson = await admin(['teams', 'create', '--json'], none)
      expect(asJson.code).toBe(2)
      expect(JSON.parse(asJson.stderr)).toEqual({
        error: { kind: 'invalid', message: 'name is required' },
      })
      const help = await admin(['--help'], none)
      expect(help.code).toBe(0)
      expect(help.stdout).toContain(
        'teams add-user --team TEAM_ID --user USER_ID',
      )
    },
    SLOW,
  )

  it(
    'exits 1 naming what is missing or taken',
    async () => {
      const team = randomUUID()
      const user = randomUUID()
      const missingTeam = await admin([
        'teams',
        'add-user',
        '--team',
        team,
        '--user',
        user,
      ])
      expect(missingTeam).toMatchObject({ code: 1, stdout: '' })
      expect(missingTeam.stderr).toBe(`error: no team with id ${team}\n`)
      const real = json<Team>(
        await admin(['teams', 'create', '--name', 'R', '--json']),
      )
      const missingUser = await admin([
        'teams',
        'add-user',
        '--team',
        real.id,
        '--user',
        user,
        '--json',
      ])
      expect(missingUser.code).toBe(1)
      expect(JSON.parse(missingUser.stderr)).toEqual({
        error: { kind: 'not_found', message: `no user with id ${user}` },
      })
      const email = uniqueEmail()
      await admin(['users', 'create', '--name', 'A', '--email', email])
      const taken = await admin([
        'users',
        'create',
        '--name',
        'B',
        '--email',
        email,
      ])
      expect(taken.code).toBe(1)
      expect(taken.stderr).toContain(
        `a user with email ${email} already exists`,
      )
      const unreachable = await admin(['teams', 'list'], {
        DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      })
      expect(unreachable.code).toBe(1)
      expect(unreachable.stderr).toContain(
        'cannot use the control plane (DATABASE_URL)',
      )
    },
    SLOW,
  )

  it(
    'attaches to the embedded Postgres a running server holds under DATA_DIR',
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'sluice-admin-cli-'))
      // What start.ts does for `npm start`: the cluster under DATA_DIR/postgres, database sluice.
      const running = await startEmbeddedPostgres({
        dir: join(dataDir, 'postgres'),
        database: CONTROL_PLANE_DATABASE,
      })
      const client = new pg.Client({ connectionString: running.url })
      try {
        const team = json<Team>(
          await admin(['teams', 'create', '--name', 'Attached', '--json'], {
            DATA_DIR: dataDir,
          }),
        )
        // The server's Postgres is still up and holds the team the CLI made.
        await client.connect()
        const { rows } = await client.query(
          'select name from teams where id = $1',
          [team.id],
        )
        expect(rows).toEqual([{ name: 'Attached' }])
      } finally {
        await client.end().catch(() => {})
        await running.stop()
        await rm(dataDir, { recursive: true, force: true })
      }
    },
    SLOW,
  )

  it(
    'runs as a process: its answer on stdout and its exit code',
    async () => {
      const env = { DATABASE_URL: database.url }
      const team = adminJson<Team>(
        await adminProcess(
          ['teams', 'create', '--name', 'Spawned', '--json'],
          env,
        ),
      )
      expect(team).toMatchObject({ name: 'Spawned', members: 0 })
      const bad = await adminProcess(['teams', 'create'], env)
      expect(bad.code).toBe(2)
      expect(bad.stderr).toContain('name is required')
    },
    SLOW,
  )

  it(
    'runs from the server bundle, as in the image (which has no TypeScript loader)',
    async () => {
      const env = { DATABASE_URL: database.url }
      const created = adminJson<Team>(
        await adminProcess(
          ['teams', 'create', '--name', 'Bundled', '--json'],
          env,
          { bundled: true },
        ),
      )
      const listed = adminJson<Team[]>(
        await adminProcess(['teams', 'list', '--json'], env, { bundled: true }),
      )
      expect(listed.map((team) => team.id)).toContain(created.id)
    },
    SLOW,
  )
})
