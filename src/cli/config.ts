// Where the CLI finds its server and token: flags first, then SLUICE_URL / SLUICE_API_TOKEN,
// then what `sluice auth login` stored in the user's config directory (a file only its owner
// may read: mode 0600 in a 0700 directory).
import {
  chmodSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { usageError } from './errors.ts'

type Stored = { url: string; token: string }

/** The environment variables the CLI reads, for the docs (tests/unit/docs-references.test.ts). */
export const CLI_VARIABLES = {
  SLUICE_URL: 'the Sluice server, when --url is not given',
  SLUICE_API_TOKEN: 'a team API token, when --token is not given',
  SLUICE_NO_BROWSER: '`auth login` prints the page without opening a browser',
} as const

/** $XDG_CONFIG_HOME/sluice, else ~/.config/sluice. */
function configDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config')
  return join(base, 'sluice')
}

const fileOf = (env: NodeJS.ProcessEnv) =>
  join(configDir(env), 'credentials.json')

export function readStored(env: NodeJS.ProcessEnv): Stored | null {
  try {
    const parsed = JSON.parse(
      readFileSync(fileOf(env), 'utf8'),
    ) as Partial<Stored>
    return typeof parsed.url === 'string' && typeof parsed.token === 'string'
      ? { url: parsed.url, token: parsed.token }
      : null
  } catch {
    return null
  }
}

/** Keeps the login in a file only its owner may read; answers the file's path. */
export function writeStored(env: NodeJS.ProcessEnv, stored: Stored): string {
  const dir = configDir(env)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  chmodSync(dir, 0o700)
  const file = fileOf(env)
  // Created private, and made so if it existed with wider rights.
  writeFileSync(file, `${JSON.stringify(stored)}\n`, { mode: 0o600 })
  chmodSync(file, 0o600)
  return file
}

export function removeStored(env: NodeJS.ProcessEnv): boolean {
  const file = fileOf(env)
  try {
    readFileSync(file)
  } catch {
    return false
  }
  rmSync(file, { force: true })
  return true
}

/** The server and token a command talks to; a usage error when either is unknown. */
export function connection(
  flags: { url?: string; token?: string },
  env: NodeJS.ProcessEnv,
): { url: string; token: string } {
  const stored = readStored(env)
  const url = flags.url ?? env.SLUICE_URL ?? stored?.url
  const token = flags.token ?? env.SLUICE_API_TOKEN ?? stored?.token
  if (!url)
    throw usageError(
      'No Sluice URL: set SLUICE_URL, pass --url, or run `sluice auth login`.',
    )
  if (!token)
    throw usageError(
      'No API token: set SLUICE_API_TOKEN, pass --token, or run `sluice auth login`.',
    )
  return { url: url.replace(/\/+$/, ''), token }
}
