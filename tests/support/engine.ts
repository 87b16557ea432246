// The sync engine over a test database, served on a free local port like `npm run engine`.
import { randomBytes } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { LogLimit } from '../../src/engine/database-config.ts'
import type { ShapeDatabase } from '../../src/engine/database.ts'
import { Engine } from '../../src/engine/engine.ts'
import type { SpillLimit } from '../../src/engine/replication/spill.ts'
import type { MaxConcurrentRequests } from '../../src/engine/http/admission.ts'
import { createEngineServer } from '../../src/engine/http/node-listener.ts'
import type { SupervisorEvents } from '../../src/engine/replication/supervisor.ts'
import { waitUntil } from './wait.ts'

export type TestEngine = {
  engine: Engine
  database: ShapeDatabase
  /** `http://127.0.0.1:<port>/v1/shape` */
  shapeUrl: string
  dataDir: string
  /** Stops the engine (slot and logs stay), keeps the data dir. */
  stop(): Promise<void>
  /** Stops and removes slot, publication and data dir. */
  destroy(): Promise<void>
}

export async function startTestEngine(
  connectionString: string,
  options: {
    dataDir?: string
    id?: string
    logLimit?: LogLimit
    chunkBytes?: number
    /** How long a silent replication connection is trusted (engine default 30 s). */
    silenceMs?: number
    /** Sees every request the engine's HTTP app answers (e.g. to count origin requests). */
    onRequest?: (request: IncomingMessage) => void
    sseTimeoutMs?: number
    keepAliveMs?: number
    /** How long a live request waits for a change (engine default 20 s). */
    longPollMs?: number
    /** Cache ages of non-live answers, in seconds (engine default: Electric's 60 and 300). */
    cacheMaxAge?: number
    cacheStaleAge?: number
    events?: SupervisorEvents
    /** When a transaction spills to disk (engine default: replication/spill.ts). */
    spillLimit?: SpillLimit
    /** A fixed port, so a restarted engine answers its clients at the same URL (default: free). */
    port?: number
    /** Sees the engine's notices (a data dir made private at start). */
    log?: (line: string) => void
    /** Connections released after this long idle (engine default: never). */
    replicationIdleTimeoutMs?: number
    /** Admission's limits (engine default: Electric's). */
    maxConcurrentRequests?: MaxConcurrentRequests
    /** A cap on shapes and how often it is applied (engine default: none, 60 s). */
    maxShapes?: number
    expiryPeriodMs?: number
  } = {},
): Promise<TestEngine> {
  const dataDir =
    options.dataDir ?? (await mkdtemp(join(tmpdir(), 'sluice-engine-')))
  // Slots are cluster-wide: every engine in a run needs its own.
  const id = options.id ?? `test_${randomBytes(4).toString('hex')}`
  const engine = new Engine({ dataDir, log: options.log })
  const database = engine.attach(id, connectionString, {
    logLimit: options.logLimit,
    silenceMs: options.silenceMs,
    events: options.events,
    spillLimit: options.spillLimit,
    replicationIdleTimeoutMs: options.replicationIdleTimeoutMs,
    maxShapes: options.maxShapes,
    expiryPeriodMs: options.expiryPeriodMs,
  })
  const server = createEngineServer(
    {
      database,
      allowShapeDeletion: true,
      chunkBytes: options.chunkBytes,
      sseTimeoutMs: options.sseTimeoutMs,
      keepAliveMs: options.keepAliveMs,
      longPollMs: options.longPollMs,
      maxConcurrentRequests: options.maxConcurrentRequests,
      cacheMaxAge: options.cacheMaxAge,
      cacheStaleAge: options.cacheStaleAge,
    },
    { onRequest: options.onRequest },
  )
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve()),
  )
  const { port } = server.address() as AddressInfo
  await waitUntil('the engine to be active', () => database.status === 'active')
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve())
      // Long-polls would hold close() open for up to 20 s.
      server.closeAllConnections()
    })
  return {
    engine,
    database,
    shapeUrl: `http://127.0.0.1:${port}/v1/shape`,
    dataDir,
    async stop() {
      await close()
      await engine.stop()
    },
    async destroy() {
      await close()
      await engine.remove(id)
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
