// The engine: every attached database under one data dir, each with its own slot and shapes.
import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { ConnectionSettings, LogLimit } from './database-config.ts'
import { ShapeDatabase } from './database.ts'
import type { HostPinner } from './pg/pinned-socket.ts'
import {
  PRIVATE_DIR,
  tightenTree,
  tightenedNotice,
} from './storage/private-files.ts'
import type { SpillLimit } from './replication/spill.ts'
import type { SupervisorEvents } from './replication/supervisor.ts'

export type EngineOptions = {
  dataDir: string
  /** Names this engine process in event logs; one per process by default. */
  instanceId?: string
  /** Where the engine's one notice goes: a data dir it had to make private at start. */
  log?: (line: string) => void
}

export type AttachOptions = {
  events?: SupervisorEvents
  logLimit?: LogLimit
  /**
   * Checks and pins the host's address on every connection: required for a database a user
   * named (its name may be rebound to an inner address later). Omitted only for a database
   * the operator named: the control plane, the standalone CLI's.
   */
  pinHost?: HostPinner
  /** See DatabaseConfig.onShapesChanged: a shape added, ready or ended. */
  onShapesChanged?: () => void
  /** See DatabaseConfig.silenceMs: how long a silent connection is trusted. */
  silenceMs?: number
  /** See DatabaseConfig.spillLimit: when a transaction goes to disk. */
  spillLimit?: SpillLimit
  /** See DatabaseConfig.replicationIdleTimeoutMs: connections released while idle. */
  replicationIdleTimeoutMs?: number
  /** See DatabaseConfig.maxShapes and expiryPeriodMs: a cap on shapes, applied periodically. */
  maxShapes?: number
  expiryPeriodMs?: number
  /** See DatabaseConfig.connection: pool, names, manual publishing. */
  connection?: ConnectionSettings
}

export class Engine {
  readonly instanceId: string
  private databases = new Map<string, ShapeDatabase>()

  constructor(private readonly options: EngineOptions) {
    this.instanceId =
      options.instanceId ?? `engine-${randomBytes(4).toString('hex')}`
    // Before any log is opened or served: a data dir others can read is made private first.
    mkdirSync(options.dataDir, { recursive: true, mode: PRIVATE_DIR })
    const notice = tightenedNotice(
      options.dataDir,
      tightenTree(options.dataDir),
    )
    if (notice) options.log?.(notice)
  }

  /** Starts serving a database; attaching an attached id returns the running one. */
  attach(
    id: string,
    connectionString: string,
    options: AttachOptions = {},
  ): ShapeDatabase {
    const existing = this.databases.get(id)
    if (existing) return existing
    const database = new ShapeDatabase({
      id,
      connectionString,
      dataDir: this.dataDirOf(id),
      ...options,
    })
    this.databases.set(id, database)
    database.start()
    return database
  }

  get(id: string): ShapeDatabase | undefined {
    return this.databases.get(id)
  }

  /** Stops streaming; slot, publication and logs stay for the next attach. */
  async detach(id: string): Promise<void> {
    const database = this.databases.get(id)
    this.databases.delete(id)
    await database?.stop()
  }

  /** Stops streaming and removes slot, publication and logs. */
  async remove(id: string): Promise<void> {
    const database = this.databases.get(id)
    this.databases.delete(id)
    await database?.destroy()
  }

  /**
   * Stops streaming and deletes the shape logs kept here, without touching the database
   * (slot and publication stay): for a database that is gone or no longer ours to clean.
   */
  async discard(id: string): Promise<void> {
    await this.detach(id)
    await rm(this.dataDirOf(id), { recursive: true, force: true })
  }

  private dataDirOf(id: string): string {
    return join(
      this.options.dataDir,
      'databases',
      id.replace(/[^A-Za-z0-9_-]/g, '_'),
    )
  }

  async stop(): Promise<void> {
    await Promise.all([...this.databases.keys()].map((id) => this.detach(id)))
  }
}
