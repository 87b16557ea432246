// `sluice`: a team's sources from a terminal or a CI job, over the REST API with a team API
// token, as Electric Cloud's users drove its `electric` CLI. Every command takes `--json`;
// the exit code says how it went (errors.ts). Run as `npx sluice …` (bin/sluice.js).
import { parseArgs } from 'node:util'
import { createApi } from './api.ts'
import { authCommand } from './auth.ts'
import { connection } from './config.ts'
import { CliError, EXIT, usageError } from './errors.ts'
import { printJson, printTable, type Out } from './output.ts'
import { sourcesCommand } from './sources.ts'

const HELP = `Usage: sluice <command> [options]

Commands:
  teams list
  sources list [--team ID] [--project P] [--environment E]
  sources get <id>
  sources create --team ID --region REGION --database-url-env VAR
                 [--name N] [--project P] [--environment E] [--skip-validation]
  sources delete <id> [--force]
  sources clear-cache <id>
  sources get-secret <id>
  sources rotate-secret <id>
  sources wait <id> --state STATE [--timeout 120s]
  auth login [--url URL]    approve a token for this machine in the dashboard
  auth status | logout

Options:
  --url URL       the Sluice server (else $SLUICE_URL, else the stored login)
  --token TOKEN   a team API token (else $SLUICE_API_TOKEN, else the stored login)
  --json          print the API's JSON
  --help          this text

Exit codes: 0 done, 1 the command failed, 2 wrong usage.
`

const OPTIONS = {
  url: { type: 'string' },
  token: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  team: { type: 'string' },
  project: { type: 'string' },
  environment: { type: 'string' },
  region: { type: 'string' },
  name: { type: 'string' },
  'database-url-env': { type: 'string' },
  'skip-validation': { type: 'boolean' },
  force: { type: 'boolean' },
  state: { type: 'string' },
  timeout: { type: 'string' },
} as const

export type Io = {
  out: Out
  err: Out
  env: NodeJS.ProcessEnv
  pause?: (ms: number) => Promise<void>
}

/** Runs one command line; answers the exit code. */
export async function run(argv: string[], io: Io): Promise<number> {
  try {
    await dispatch(argv, io)
    return EXIT.ok
  } catch (error) {
    if (error instanceof CliError) {
      io.err.write(`sluice: ${error.message}\n`)
      if (error.code === EXIT.usage)
        io.err.write('Run `sluice --help` for usage.\n')
      return error.code
    }
    io.err.write(
      `sluice: ${error instanceof Error ? error.message : String(error)}\n`,
    )
    return EXIT.failure
  }
}

async function dispatch(argv: string[], io: Io): Promise<void> {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
    })
  } catch (error) {
    throw usageError(error instanceof Error ? error.message : String(error))
  }
  const { values, positionals } = parsed
  const [group, action, ...rest] = positionals
  if (values.help || group === 'help' || group === undefined) {
    io.out.write(HELP)
    if (group === undefined && !values.help)
      throw usageError('a command is required')
    return
  }
  const pause =
    io.pause ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  if (group === 'auth') return authCommand(action, values, { ...io, pause })
  const { url, token } = connection(values, io.env)
  const ctx = {
    api: createApi(url, token),
    out: io.out,
    json: values.json === true,
    env: io.env,
    pause,
  }
  if (group === 'teams') {
    if (action !== 'list') throw usageError('teams: the only action is list')
    const teams = await ctx.api<Array<{ id: string; name: string }>>(
      'GET',
      '/api/v1/teams',
    )
    if (ctx.json) printJson(io.out, teams)
    else printTable(io.out, teams, ['id', 'name'])
    return
  }
  if (group === 'sources') return sourcesCommand(ctx, action, rest, values)
  throw usageError(`unknown command "${group}"`)
}
