// The real server on the production build, launched as e2e launches it: a child process (the
// offline phase stops it) on an embedded Postgres in a temp dir that this process owns.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import {
  freePort,
  startEmbeddedPostgres,
} from '../../../src/server/platform/db/embedded-postgres.ts'
import { SERVER_BUNDLE } from '../../build/server.ts'
import type { Cleanup } from './cleanup.ts'
import { sleep, until } from './wait.ts'

export type RunningServer = {
  url: string
  /** The control-plane database, for the rows the benchmark writes. */
  db: pg.Pool
  /** A superuser URL of the embedded Postgres, where source databases can be made too. */
  postgresUrl: string
  /** SIGTERM, as a deploy or Ctrl-C would stop it; Postgres keeps running. */
  stop(): Promise<void>
}

const STOP_TIMEOUT_MS = 20_000
const REPO = fileURLToPath(new URL('../../../', import.meta.url))

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  const inTime = await Promise.race([
    exited.then(() => true),
    sleep(STOP_TIMEOUT_MS).then(() => false),
  ])
  if (inTime) return
  child.kill('SIGKILL')
  await exited
  throw new Error(`server ignored SIGTERM for ${STOP_TIMEOUT_MS / 1000} s`)
}

export async function startServer(
  cleanup: Cleanup,
  log: (line: string) => void,
): Promise<RunningServer> {
  const root = await mkdtemp(join(tmpdir(), 'sluice-bench-web-'))
  cleanup.add('temp dir', () =>
    rm(root, { recursive: true, force: true, maxRetries: 5 }),
  )
  // As root, Postgres runs as `postgres` and must be able to walk into its directory.
  await chmod(root, 0o755)
  const postgresLog: string[] = []
  const postgres = await startEmbeddedPostgres({
    dir: join(root, 'postgres'),
    database: 'sluice',
    log: (line) => postgresLog.push(line),
  }).catch((error: unknown) => {
    throw new Error(
      `embedded Postgres failed:\n${postgresLog.slice(-20).join('\n')}`,
      { cause: error },
    )
  })
  // After Ctrl-C, Postgres has had the signal too and may be gone: stop() would wait for an
  // exit already past, so a removed postmaster.pid also counts as stopped.
  const pidFile = join(root, 'postgres', 'data', 'postmaster.pid')
  cleanup.add('Postgres', () =>
    Promise.race([
      postgres.stop(),
      until(() => !existsSync(pidFile), 'Postgres to exit'),
    ]),
  )
  log(`embedded Postgres on port ${postgres.port}`)

  const port = await freePort()
  const url = `http://localhost:${port}`
  const child = spawn(process.execPath, [SERVER_BUNDLE], {
    cwd: REPO,
    // The server's own log goes to stderr with ours; stdout carries only the figures.
    stdio: ['ignore', 2, 2],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: 'localhost',
      DATA_DIR: join(root, 'data'),
      DATABASE_URL: postgres.url,
      LOG_LEVEL: 'warn',
      POSTHOG_KEY: '',
    },
  })
  cleanup.add('server', () => stopChild(child))
  // Ready when health answers; a server that exits instead ends the wait at once.
  await until(
    async () =>
      child.exitCode !== null || (await fetch(`${url}/api/public/health`)).ok,
    `the server on ${url}`,
  )
  if (child.exitCode !== null)
    throw new Error(`server exited with ${child.exitCode} before it was up`)
  log(`server up on ${url}`)

  const db = new pg.Pool({ connectionString: postgres.url, max: 2 })
  // Ctrl-C reaches Postgres too: an idle connection it drops must not crash the cleanup.
  db.on('error', (error) => log(`database pool: ${error.message}`))
  cleanup.add('database pool', () => db.end())
  return {
    url,
    db,
    postgresUrl: postgres.url,
    stop: () => stopChild(child),
  }
}
