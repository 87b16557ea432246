// What every browser fault (F2, F9, F10, F11) stands on: its own control-plane Postgres (kept
// apart from the server, DATABASE_URL, so it outlives a server kill), a pool on it to write and
// count rows, the server as a child process, and Chromium; all of it stopped and removed after.
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser } from '@playwright/test'
import { createPool, type Db } from '../../src/server/platform/db/database.ts'
import {
  freePort,
  startEmbeddedPostgres,
  type RunningPostgres,
} from '../../src/server/platform/db/embedded-postgres.ts'
import { launchChromium } from './dashboard.ts'
import { startServerProcess, type ServerProcess } from './server-process.ts'
import { scratchDir } from './support.ts'

export type BrowserStack = {
  root: string
  /** The data dir the Postgres runs on (a restarted one takes it again). */
  postgresDir: string
  /** Replaced by a scenario that restarts Postgres, so the cleanup stops the new one. */
  postgres: RunningPostgres
  db: Db
  server: ServerProcess
  browser: Browser
}

export async function withBrowserStack<T>(
  name: string,
  log: (line: string) => void,
  run: (stack: BrowserStack) => Promise<T>,
): Promise<T> {
  const root = await scratchDir(name)
  const postgresDir = join(root, 'pg')
  const postgres = await startEmbeddedPostgres({
    dir: postgresDir,
    database: 'sluice',
  })
  const db = createPool(postgres.url)
  const server = await startServerProcess({
    databaseUrl: postgres.url,
    port: await freePort(),
    dataDir: join(root, 'data'),
    log,
  })
  const stack: BrowserStack = {
    root,
    postgresDir,
    postgres,
    db,
    server,
    browser: await launchChromium(),
  }
  try {
    return await run(stack)
  } finally {
    await stack.browser.close()
    await server.kill()
    await db.end()
    await stack.postgres.stop()
    await rm(root, { recursive: true, force: true })
  }
}
