// `sluice auth login`: asks the server for a login, sends its user to the dashboard page that
// approves it for one of their teams (the page shows the same code as the terminal, so they
// know it is theirs), waits for the approval, and keeps the new team API token in the user's
// config directory (config.ts: 0600). `auth logout` forgets it; `auth status` says which server
// a stored login is for.
import { spawn } from 'node:child_process'
import { hostname } from 'node:os'
import { createRaw } from './api.ts'
import { readStored, removeStored, writeStored } from './config.ts'
import { CliError, usageError } from './errors.ts'
import type { Out } from './output.ts'

type Io = {
  out: Out
  env: NodeJS.ProcessEnv
  pause: (ms: number) => Promise<void>
}

/** How often the terminal asks whether the login was approved. */
const POLL_MS = 2_000

type Started = {
  id: string
  poll_secret: string
  user_code: string
  approve_path: string
  expires_at: string
}

export async function authCommand(
  action: string | undefined,
  flags: { url?: string },
  io: Io,
): Promise<void> {
  if (action === 'login') return login(flags, io)
  if (action === 'logout') {
    io.out.write(
      removeStored(io.env)
        ? 'Logged out: the stored token is removed (revoke it on the team page).\n'
        : 'No stored login.\n',
    )
    return
  }
  if (action === 'status') {
    const stored = readStored(io.env)
    io.out.write(stored ? `Logged in to ${stored.url}.\n` : 'Not logged in.\n')
    return
  }
  throw usageError('auth: one of login, logout, status')
}

async function login(flags: { url?: string }, io: Io): Promise<void> {
  const url = (
    flags.url ??
    io.env.SLUICE_URL ??
    readStored(io.env)?.url
  )?.replace(/\/+$/, '')
  if (!url)
    throw usageError(
      'auth login: the Sluice URL is needed (--url or SLUICE_URL)',
    )
  const raw = createRaw(url)
  const start = await raw('POST', '/api/public/cli-logins', {
    machine: hostname().slice(0, 100) || 'an unnamed machine',
  })
  if (start.status !== 201)
    throw new CliError(`Could not start a login (${start.status}).`)
  const started = start.body as Started
  const page = `${url}${started.approve_path}`
  io.out.write(
    `Approve a token for this machine at:\n  ${page}\nThe page shows the code ${started.user_code}; check it is the same.\nWaiting for the approval...\n`,
  )
  openBrowser(page, io.env)
  const deadline = Date.parse(started.expires_at)
  for (;;) {
    const asked = await raw(
      'POST',
      `/api/public/cli-logins/${encodeURIComponent(started.id)}/collect`,
      { poll_secret: started.poll_secret },
    )
    if (asked.status === 200) {
      const { token, team_id } = asked.body as {
        token: string
        team_id: string
      }
      const file = writeStored(io.env, { url, token })
      io.out.write(
        `Logged in: a token for team ${team_id} is stored in ${file}, readable by you alone.\n`,
      )
      return
    }
    if (asked.status !== 202) {
      const body = asked.body as { message?: string } | null
      throw new CliError(body?.message ?? `The login failed (${asked.status}).`)
    }
    if (Date.now() > deadline)
      throw new CliError('The login was not approved in time; run it again.')
    await io.pause(POLL_MS)
  }
}

/** Opens the page in the user's browser when one may be there; the printed link is enough. */
function openBrowser(page: string, env: NodeJS.ProcessEnv): void {
  if (env.SLUICE_NO_BROWSER || env.CI) return
  const command =
    process.platform === 'darwin'
      ? 'open'
      : process.platform === 'win32'
        ? 'explorer'
        : 'xdg-open'
  try {
    const child = spawn(command, [page], { stdio: 'ignore', detached: true })
    child.on('error', () => {})
    child.unref()
  } catch {
    // No opener: the link above is enough.
  }
}
