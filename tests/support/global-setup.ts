// One embedded Postgres for the whole integration run; test files get its admin URL through
// `inject('pgAdminUrl')` and each creates (and drops) its own database on it. The server bundle
// is built first (half a second), so tests that spawn the server run the sources as they are.
import { chmod, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { createPool } from '../../src/server/platform/db/database.ts'
import { migrateControlPlane } from '../../src/server/platform/db/migrations.ts'
import { startEmbeddedPostgres } from '../../src/server/platform/db/embedded-postgres.ts'
import { buildServer } from '../../scripts/build/server.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** A superuser URL for the `postgres` database of the run's embedded server. */
    pgAdminUrl: string
    /** A database of that server with every control-plane migration applied, to copy. */
    controlPlaneTemplate: string
  }
}

/**
 * Migrates the control plane once per run, into a database test files copy (`create database
 * … template`, a file copy) rather than replay every migration for each file. Nothing stays
 * connected to it: Postgres copies only a template no session is using.
 */
async function migratedTemplate(adminUrl: string): Promise<string> {
  const name = 'control_plane_template'
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    await admin.query(`create database ${name}`)
  } finally {
    await admin.end()
  }
  const db = createPool(
    Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString(),
  )
  try {
    await migrateControlPlane(db)
  } finally {
    await db.end()
  }
  return name
}

export default async function setup(project: TestProject) {
  const repo = fileURLToPath(new URL('../..', import.meta.url))
  await buildServer(repo, join(repo, 'dist'))
  const root = await mkdtemp(join(tmpdir(), 'sluice-test-pg-'))
  // Postgres runs as the `postgres` user when we are root; it must reach its directory.
  await chmod(root, 0o755)
  const log: string[] = []
  const pg = await startEmbeddedPostgres({
    dir: join(root, 'pg'),
    // A throwaway cluster: durability only costs time (a synced DROP DATABASE takes ~0.8 s).
    settings: {
      fsync: 'off',
      synchronous_commit: 'off',
      full_page_writes: 'off',
      // Test files run side by side (vitest.config.ts' maxWorkers), each with its own sources:
      // a slot and a WAL sender each, past the default 10 at once.
      max_replication_slots: '64',
      max_wal_senders: '64',
      max_connections: '300',
    },
    log: (line) => log.push(line),
  }).catch(async (error: unknown) => {
    await rm(root, { recursive: true, force: true, maxRetries: 5 })
    throw new Error(`embedded Postgres failed to start:\n${log.join('\n')}`, {
      cause: error,
    })
  })
  project.provide('pgAdminUrl', pg.url)
  project.provide('controlPlaneTemplate', await migratedTemplate(pg.url))

  return async () => {
    await pg.stop()
    await rm(root, { recursive: true, force: true, maxRetries: 5 })
  }
}
