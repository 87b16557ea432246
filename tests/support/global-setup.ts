// One embedded Postgres for the whole integration run; test files get its admin URL through
// `inject('pgAdminUrl')` and each creates (and drops) its own database on it.
import { chmod, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { startEmbeddedPostgres } from '../../src/server/control/embedded-postgres.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** A superuser URL for the `postgres` database of the run's embedded server. */
    pgAdminUrl: string
  }
}

export default async function setup(project: TestProject) {
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
    },
    log: (line) => log.push(line),
  }).catch(async (error: unknown) => {
    await rm(root, { recursive: true, force: true, maxRetries: 5 })
    throw new Error(`embedded Postgres failed to start:\n${log.join('\n')}`, {
      cause: error,
    })
  })
  project.provide('pgAdminUrl', pg.url)

  return async () => {
    await pg.stop()
    await rm(root, { recursive: true, force: true, maxRetries: 5 })
  }
}
