// `sluice sources …`: a team's sources over the REST API, as the dashboard's API clients use it.
import type { Api } from './api.ts'
import { CliError, usageError } from './errors.ts'
import { printJson, printRecord, printTable, type Out } from './output.ts'

type Source = {
  id: string
  team_id: string
  name: string | null
  state: string
  state_reason?: string | null
  region: string
  source_secret: string
  project?: string | null
  environment?: string | null
  [field: string]: unknown
}

const LIST_COLUMNS = [
  'id',
  'name',
  'team_id',
  'region',
  'state',
  'project',
  'environment',
]
const RECORD_FIELDS = [
  ...LIST_COLUMNS,
  'connection_url',
  'created_at',
  'updated_at',
  'state_reason',
]

type Context = {
  api: Api
  out: Out
  json: boolean
  env: NodeJS.ProcessEnv
  /** Resolves after `ms` (the wait command's pause; tests pass their own). */
  pause: (ms: number) => Promise<void>
}

export type SourceOptions = {
  team?: string
  project?: string
  environment?: string
  region?: string
  name?: string
  'database-url-env'?: string
  'skip-validation'?: boolean
  force?: boolean
  state?: string
  timeout?: string
}

const list = (api: Api) => api<Source[]>('GET', '/api/v1/sources')

const path = (id: string, rest = '') =>
  `/api/v1/sources/${encodeURIComponent(id)}${rest}`

const get = (api: Api, id: string) => api<Source>('GET', path(id))

function show(ctx: Context, source: Source): void {
  if (ctx.json) printJson(ctx.out, source)
  else printRecord(ctx.out, source, RECORD_FIELDS)
}

/** `120s`, `2m`, `1h` or bare seconds, in milliseconds. */
function parseTimeout(text: string): number {
  const match = /^(\d{1,7})(ms|s|m|h)?$/.exec(text.trim())
  if (!match)
    throw usageError(
      `--timeout: "${text}" is not a duration such as 120s, 2m or 1h`,
    )
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[
    match[2] ?? 's'
  ] as number
  return Number(match[1]) * unit
}

export async function sourcesCommand(
  ctx: Context,
  action: string | undefined,
  args: string[],
  options: SourceOptions,
): Promise<void> {
  const id = () => {
    const value = args[0]
    if (!value) throw usageError(`sources ${action}: the source id is missing`)
    return value
  }
  switch (action) {
    case 'list': {
      const sources = (await list(ctx.api)).filter(
        (s) =>
          (!options.team || s.team_id === options.team) &&
          (!options.project || s.project === options.project) &&
          (!options.environment || s.environment === options.environment),
      )
      if (ctx.json) printJson(ctx.out, sources)
      else printTable(ctx.out, sources, LIST_COLUMNS)
      return
    }
    case 'get':
      return show(ctx, await get(ctx.api, id()))
    case 'create':
      return show(ctx, await create(ctx, options))
    case 'delete': {
      const answer = await ctx.api<{ id: string }>(
        'DELETE',
        path(id(), options.force ? '?force_delete=true' : ''),
      )
      if (ctx.json) printJson(ctx.out, answer)
      else ctx.out.write(`Deletion of ${answer.id} requested.\n`)
      return
    }
    case 'clear-cache': {
      const answer = await ctx.api<{ id: string }>(
        'POST',
        path(id(), '/restart'),
        {
          clear_cache: true,
        },
      )
      if (ctx.json) printJson(ctx.out, answer)
      else
        ctx.out.write(
          `Cache of ${answer.id} cleared: shapes will be re-created.\n`,
        )
      return
    }
    case 'get-secret': {
      const answer = await ctx.api<{ source_secret: string }>(
        'GET',
        path(id(), '/secret'),
      )
      if (ctx.json) printJson(ctx.out, answer)
      else ctx.out.write(`${answer.source_secret}\n`)
      return
    }
    case 'rotate-secret': {
      const answer = await ctx.api<{
        source_secret: string
        previous_valid_until: string
      }>('POST', path(id(), '/rotate-secret'))
      if (ctx.json) printJson(ctx.out, answer)
      else
        ctx.out.write(
          `${answer.source_secret}\nThe previous secret works until ${answer.previous_valid_until}.\n`,
        )
      return
    }
    case 'wait':
      return show(ctx, await wait(ctx, id(), options))
    default:
      throw usageError(
        `sources: unknown action ${action ? `"${action}"` : '(none)'}; one of list, get, create, delete, clear-cache, get-secret, rotate-secret, wait`,
      )
  }
}

async function create(ctx: Context, options: SourceOptions): Promise<Source> {
  const variable = options['database-url-env']
  if (!options.team || !options.region || !variable)
    throw usageError(
      'sources create: --team, --region and --database-url-env are required',
    )
  // Read from the environment, never from argv, where other users of the machine can see it.
  const databaseUrl = ctx.env[variable]
  if (!databaseUrl) throw usageError(`sources create: $${variable} is not set`)
  const answer = await ctx.api<{ id: string; message?: string }>(
    'PUT',
    `/api/v1/sources${options['skip-validation'] ? '?skip_validation=true' : ''}`,
    {
      team_id: options.team,
      region: options.region,
      database_url: databaseUrl,
      ...(options.name !== undefined && { name: options.name }),
      ...(options.project !== undefined && { project: options.project }),
      ...(options.environment !== undefined && {
        environment: options.environment,
      }),
    },
  )
  return get(ctx.api, answer.id)
}

const WAIT_EVERY_MS = 1_000

/** Until the source is in `--state`; fails at once in `error` (unless that was asked for). */
async function wait(
  ctx: Context,
  id: string,
  options: SourceOptions,
): Promise<Source> {
  const state = options.state
  if (!state)
    throw usageError('sources wait: --state is required (e.g. --state active)')
  const deadline = Date.now() + parseTimeout(options.timeout ?? '120s')
  for (;;) {
    const source = await get(ctx.api, id)
    if (source.state === state) return source
    if (source.state === 'error')
      throw new CliError(
        `Source ${id} is in error${source.state_reason ? `: ${source.state_reason}` : ''}`,
      )
    if (Date.now() >= deadline)
      throw new CliError(
        `Source ${id} is still ${source.state}, not ${state}, after ${options.timeout ?? '120s'}`,
      )
    await ctx.pause(Math.min(WAIT_EVERY_MS, Math.max(0, deadline - Date.now())))
  }
}
