// A second, private server for specs that stop and restart it (the shared one must keep
// running): its own database in the launcher's Postgres, its own data dir and port.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from '@playwright/test'
import pg from 'pg'
import { freePort } from '../../src/server/platform/db/embedded-postgres.ts'
import { SERVER_BUNDLE } from '../../scripts/build/server.ts'
import { databaseUrlFile } from './paths.ts'

export type OwnServer = {
  url: string
  /** A pool on this server's control-plane database, for writes the test makes. */
  db: pg.Pool
  stop(): Promise<void>
  start(): Promise<void>
  destroy(): Promise<void>
}

export async function startOwnServer(): Promise<OwnServer> {
  const adminUrl = readFileSync(databaseUrlFile, 'utf8')
  const name = `sluice_${randomUUID().slice(0, 8)}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const databaseUrl = Object.assign(new URL(adminUrl), {
    pathname: `/${name}`,
  }).toString()
  const dataDir = mkdtempSync(join(tmpdir(), 'sluice-e2e-own-'))
  chmodSync(dataDir, 0o755)
  const port = await freePort()
  const url = `http://localhost:${port}`
  let child: ChildProcess | undefined

  const server: OwnServer = {
    url,
    db: new pg.Pool({ connectionString: databaseUrl, max: 2 }),
    async start() {
      child = spawn(process.execPath, [SERVER_BUNDLE], {
        stdio: 'inherit',
        env: {
          ...process.env,
          PORT: String(port),
          DATA_DIR: dataDir,
          DATABASE_URL: databaseUrl,
          HOST: 'localhost',
          LOG_LEVEL: 'warn',
          POSTHOG_KEY: '',
        },
      })
      await expect
        .poll(
          () =>
            fetch(`${url}/api/public/health`).then(
              (response) => response.ok,
              () => false,
            ),
          { message: `the server on ${url}`, timeout: 60_000 },
        )
        .toBe(true)
    },
    async stop() {
      const running = child
      if (!running || running.exitCode !== null) return
      const exited = new Promise((resolve) => running.once('exit', resolve))
      running.kill('SIGTERM')
      await exited
    },
    async destroy() {
      await server.stop()
      await server.db.end()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
  await server.start()
  return server
}
