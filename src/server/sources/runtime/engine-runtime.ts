// Runs users' sources on this server's engine and keeps the engine equal to the sources table:
// on start, every poll and every kick it attaches the sources it can claim, removes deleted
// ones (slot and publication on the user's database, then the row), and lets go of rows that
// vanished. Supervisor reports become source states and events through the pure lifecycle.
// Each pass first marks expired unclaimed (claimable) sources deleted, so they go the same way.
// It also holds the shape explorer's small pool per active source (explorer-pools.ts) and
// closes it when the source stops being active or leaves this server, and keeps the rows of
// the shapes each source's engine holds (live-shapes.ts). It claims only sources of its
// regions (`regions`), so servers in one region never hold a slot on another's databases.
import {
  type AttachOptions,
  type ShapeDatabase,
  type Engine,
  type HostPinner,
  replicationNames,
  shapeMessages,
  shapeTimeline,
} from '../../../engine/index.ts'
import type { HealthLimits } from './health.ts'
import { HealthLoop } from './health-loop.ts'
import { transition, type LifecycleSignal, type Problem } from './lifecycle.ts'
import { expireClaims } from '../../claimable-sources/claimable-sources.ts'
import type { Db } from '../../platform/db/database.ts'
import { outsideRequest, type Logger } from '../../platform/log.ts'
import { SourceClaims } from '../../cluster/holds.ts'
import { problemOf, roleOf, withPassword } from './connection-url.ts'
import {
  DEFAULT_EXPLORER_LIMITS,
  ExplorerPools,
  type ExplorerLimits,
  type SourceExplorer,
} from '../explorer/pools.ts'
import { LiveShapes } from '../live-shapes/live-shapes.ts'
import { METRICS_INTERVAL_MS, MetricsLoop } from '../metrics/metrics-loop.ts'
import { dropSourceReplication } from './removal.ts'
import {
  deleteSourceRow,
  listSources,
  writeTransition,
  type RunnableSource,
} from './rows.ts'
import type { Running } from './running-source.ts'
import type {
  ShapeDeletion,
  ShapeReading,
  SourceRuntime,
  TimelineReading,
} from './runtime.ts'
import { sourceFacts, type SourceFacts } from './source-facts.ts'
import { storedPassword, UNDECRYPTABLE } from './stored-password.ts'

export type EngineRuntimeOptions = {
  engine: Engine
  db: Db
  /** deriveKey(secret, 'source-passwords') */
  key: Buffer
  log: Logger
  /**
   * The address guard for every connection to a source (sourceHostPinner): the engine's
   * replication, setup and pool connections, and the removal's.
   */
  pinHost: HostPinner
  /** How often the sources table is read when nobody kicks: 5 s. */
  pollIntervalMs?: number
  /** How often active slots are measured: 15 s. */
  healthIntervalMs?: number
  /** How long after a failed slot removal it is tried again: 30 s. */
  dropRetryMs?: number
  healthLimits?: HealthLimits
  /** The shape explorer's time limits (explorer-pools.ts); tests shorten them. */
  explorer?: Partial<ExplorerLimits>
  /** How often changed shape counters are written (live-shapes.ts): 5 s. */
  liveShapesIntervalMs?: number
  /** How often each source's figures are sampled (metrics/metrics-loop.ts): a minute. */
  metricsIntervalMs?: number
  /** Bounds on each source's shapes; the engine's defaults unless set (tests tighten them). */
  shapeLimits?: Pick<AttachOptions, 'logLimit' | 'maxShapes' | 'expiryPeriodMs'>
  /** The regions whose sources this server claims (SLUICE_REGIONS); unset: every region. */
  regions?: readonly string[]
  /**
   * Where other servers reach this one (SLUICE_INTERNAL_URL), recorded with each claim so
   * they forward the source's requests here; unset (one server), nothing is recorded.
   */
  internalUrl?: string
  /**
   * How old another server's heartbeat on a source of these regions may grow before its
   * claims backend is ended and the source claimed here (SLUICE_HOLDER_STALE_MS): 30 s.
   * Only with `internalUrl` (holders are recorded).
   */
  holderStaleMs?: number
}

export class EngineSourceRuntime implements SourceRuntime {
  readonly instanceId: string
  private readonly running = new Map<string, Running>()
  private readonly failedDrops = new Map<string, number>()
  private readonly claims: SourceClaims
  private readonly explorers: ExplorerPools
  private readonly liveShapes: LiveShapes
  private readonly health: HealthLoop
  private readonly metrics: MetricsLoop
  private timers: NodeJS.Timeout[] = []
  private readonly endedListeners = new Set<(instanceId: string) => void>()
  private reconciling: Promise<void> | null = null
  private again = false
  private stopped = false

  constructor(private readonly options: EngineRuntimeOptions) {
    this.instanceId = options.engine.instanceId
    this.claims = new SourceClaims(
      options.db,
      () => this.onClaimsLost(),
      options.internalUrl
        ? { instanceId: this.instanceId, internalUrl: options.internalUrl }
        : undefined,
    )
    this.explorers = new ExplorerPools(options.pinHost, {
      ...DEFAULT_EXPLORER_LIMITS,
      ...options.explorer,
    })
    this.liveShapes = new LiveShapes({
      ...options,
      instanceId: this.instanceId,
    })
    this.health = new HealthLoop({ ...options, instanceId: this.instanceId })
    this.metrics = new MetricsLoop(options)
  }

  start(): void {
    const { pollIntervalMs = 5_000, healthIntervalMs = 15_000 } = this.options
    // At least three beats within the bound, so one slow beat never makes a live holder stale.
    const beatMs = Math.min(pollIntervalMs, this.holderStaleMs / 3)
    this.timers.push(
      setInterval(() => this.kick(), pollIntervalMs),
      this.claims.beatEvery(beatMs, (error) =>
        this.options.log.warn(`sources: heartbeat failed: ${error.message}`),
      ),
      setInterval(
        () => void this.health.measureAll(this.running.values()),
        healthIntervalMs,
      ),
      setInterval(
        () => void this.metrics.sampleAll(this.running.values()),
        this.options.metricsIntervalMs ?? METRICS_INTERVAL_MS,
      ),
    )
    this.liveShapes.start()
    this.kick()
  }

  kick(): void {
    void this.reconcile()
  }

  retryRemoval(sourceId: string): void {
    this.failedDrops.delete(sourceId)
    this.kick()
  }

  /** Reads the table and acts on it now; resolves once a pass that started after the call ends. */
  reconcile(): Promise<void> {
    if (this.stopped) return Promise.resolve()
    if (this.reconciling) {
      this.again = true
      return this.reconciling
    }
    // A kick comes from a request; the pass and the streams it starts are no request's.
    this.reconciling = outsideRequest(async () => {
      do {
        this.again = false
        await this.reconcileOnce().catch((error: Error) =>
          this.options.log.warn(`sources: reconcile failed: ${error.message}`),
        )
      } while (this.again && !this.stopped)
    }).finally(() => (this.reconciling = null))
    return this.reconciling
  }

  async clearCache(sourceId: string): Promise<number | null> {
    const database = this.running.get(sourceId)?.database
    return database ? database.rotateAll() : null
  }

  async restart(sourceId: string): Promise<boolean> {
    const database = this.running.get(sourceId)?.database
    if (!database) return false
    await outsideRequest(() => database.restartStream())
    return true
  }

  holds(sourceId: string): boolean {
    return this.claims.held.has(sourceId)
  }

  onHolderEnded(listener: (instanceId: string) => void): () => void {
    this.endedListeners.add(listener)
    return () => this.endedListeners.delete(listener)
  }

  database(sourceId: string): ShapeDatabase | undefined {
    const database = this.running.get(sourceId)?.database
    return database?.status === 'active' ? database : undefined
  }

  deleteShape(sourceId: string, handle: string): Promise<ShapeDeletion> {
    return this.liveShapes.deleteShape(sourceId, handle)
  }

  shapeMessages(
    sourceId: string,
    handle: string,
    offset: string,
    limit: number,
  ): ShapeReading {
    // Any status: a shape's log is readable while its source reconnects.
    const database = this.running.get(sourceId)?.database
    if (!database) return { kind: 'not_running' }
    return shapeMessages(database, handle, offset, { limit })
  }

  shapeTimeline(sourceId: string, handle: string): TimelineReading {
    const database = this.running.get(sourceId)?.database
    if (!database) return { kind: 'not_running' }
    return shapeTimeline(database, handle)
  }

  explorer(sourceId: string): SourceExplorer | undefined {
    const entry = this.running.get(sourceId)
    const database = entry?.database
    if (!entry || database?.status !== 'active') return undefined
    return this.explorers.explorer(sourceId, {
      connectionString: database.config.connectionString,
      password: entry.password,
      role: entry.context.role,
    })
  }

  /** Each source held here, as metrics read it: from memory, no query. */
  facts(): SourceFacts[] {
    return [...this.running.values()].map(sourceFacts)
  }

  async stop(): Promise<void> {
    this.stopped = true
    for (const timer of this.timers) clearInterval(timer)
    await this.reconciling
    await this.health.stop()
    await this.metrics.stop()
    await Promise.all([...this.running.keys()].map((id) => this.detach(id)))
    await this.liveShapes.stop()
    await this.explorers.closeAll()
    await this.claims.close()
  }

  private get holderStaleMs(): number {
    return this.options.holderStaleMs ?? 30_000
  }

  private async reconcileOnce(): Promise<void> {
    // Claimable sources nobody claimed in time are marked deleted, then removed below like any.
    await expireClaims(this.options.db, this.instanceId)
    // A hung holder of this region: its locks go with its backend, claimed below or next pass.
    for (const ended of await this.claims.endStale(
      this.options.regions,
      this.holderStaleMs,
    )) {
      this.options.log.warn(
        `sources: ${ended} stopped answering for its claims (no heartbeat for ${this.holderStaleMs} ms); ended its claims session`,
      )
      // Requests this server forwarded to it wait on a process that will not answer.
      for (const listener of this.endedListeners) listener(ended)
    }
    const rows = await listSources(this.options.db)
    const present = new Set(rows.map((row) => row.id))
    // Force-deleted: the record is gone; the user's database is not ours to touch any more.
    for (const id of new Set([...this.claims.held, ...this.running.keys()]))
      if (!present.has(id)) await this.forget(id)
    const regions = this.options.regions
    for (const row of rows) {
      if (this.stopped) return
      // Another region's source is never claimed, not even to remove it: its servers do.
      if (regions && !regions.includes(row.region)) continue
      if (!(await this.claims.claim(row.id))) continue
      if (row.deleted) await this.remove(row)
      else if (!this.running.has(row.id)) this.attach(row)
    }
  }

  private attach(row: RunnableSource): void {
    const names = replicationNames(row.id)
    const entry: Running = {
      id: row.id,
      region: row.region,
      context: { ...names, role: roleOf(row.connection_url) },
      password: null,
      current: {
        state: row.state,
        reason: row.state_reason,
        started: row.state !== 'initializing',
      },
      health: row.health,
      walReadings: [],
      measuring: null,
      database: null,
      writes: Promise.resolve(),
    }
    this.running.set(row.id, entry)
    const password = storedPassword(this.options.key, row)
    if (password instanceof Error)
      return this.signal(entry, { kind: 'unusable', reason: UNDECRYPTABLE })
    entry.password = password
    entry.database = this.options.engine.attach(
      row.id,
      withPassword(row.connection_url, password),
      {
        ...this.options.shapeLimits,
        events: {
          onStatus: (status, reason, code) => {
            // The explorer reads only active sources: its connections go with the activity.
            if (status !== 'active') this.explorers.close(row.id)
            this.signal(entry, {
              kind: 'status',
              status,
              problem: reason ? this.problem(entry, reason, code) : undefined,
            })
          },
          onSlotRecreated: (cause) =>
            this.signal(entry, { kind: 'slot-made', cause }),
          onAltered: (statements) =>
            this.signal(entry, { kind: 'altered', statements }),
        },
        pinHost: this.options.pinHost,
        onShapesChanged: () => this.liveShapes.changed(row.id),
      },
    )
    this.liveShapes.open(row.id, entry.database)
  }

  /** Stops streaming, removes slot and publication, then the shape logs and the row. */
  private async remove(row: RunnableSource): Promise<void> {
    const failedAt = this.failedDrops.get(row.id)
    const retryMs = this.options.dropRetryMs ?? 30_000
    if (failedAt !== undefined && Date.now() - failedAt < retryMs) return
    const entry = this.running.get(row.id)
    const current = entry
      ? (await this.detach(row.id, true), entry.current)
      : { state: row.state, reason: row.state_reason }
    const names = replicationNames(row.id)
    const problem = await dropSourceReplication(
      row,
      names,
      this.options.key,
      this.options.pinHost,
    )
    if (problem) {
      this.failedDrops.set(row.id, Date.now())
      const change = transition(
        current,
        { kind: 'delete-failed', problem },
        { ...names, role: roleOf(row.connection_url) },
      )
      if (change)
        await writeTransition(this.options.db, row.id, change, this.instanceId)
      this.options.log.warn(`sources: ${row.id} removal failed`)
      return
    }
    await this.options.engine.discard(row.id)
    await deleteSourceRow(this.options.db, row.id)
    this.failedDrops.delete(row.id)
    await this.claims.release(row.id)
    this.options.log.info(`sources: ${row.id} removed`)
  }

  private async forget(id: string): Promise<void> {
    const entry = this.running.get(id)
    this.running.delete(id)
    this.explorers.close(id)
    // Its rows went with the source's row.
    await this.liveShapes.close(id, false)
    await this.options.engine.discard(id)
    await entry?.writes
    this.failedDrops.delete(id)
    await this.claims.release(id)
  }

  /** `clearShapes`: removing the source. Else its rows wait for its next runner to replace. */
  private async detach(id: string, clearShapes = false): Promise<void> {
    const entry = this.running.get(id)
    this.running.delete(id)
    this.explorers.close(id)
    await this.liveShapes.close(id, clearShapes)
    await this.options.engine.detach(id)
    await entry?.writes
  }

  private problem(entry: Running, message: string, code?: string): Problem {
    return problemOf({ code, message }, entry.password)
  }

  private signal(entry: Running, signal: LifecycleSignal): void {
    // Signals may come from inside a request's work (a shape request publishing a table): the
    // source's lines are the runtime's, never that request's.
    outsideRequest(() => this.write(entry, signal))
  }

  private write(entry: Running, signal: LifecycleSignal): void {
    entry.writes = entry.writes
      .then(async () => {
        // A server that lost its claim (a hung one woken after a takeover) writes nothing:
        // the source's state is its new holder's to write.
        if (!this.claims.held.has(entry.id)) return
        const change = transition(entry.current, signal, entry.context)
        if (!change) return
        const written = await writeTransition(
          this.options.db,
          entry.id,
          change,
          this.instanceId,
        )
        if (!written) return
        entry.current = {
          state: change.state,
          reason: change.reason,
          started: entry.current.started || change.state === 'active',
        }
        this.options.log.info(
          `sources: ${entry.id} ${change.event.name} (${change.state})`,
        )
        // Measured at once, not up to an interval later: an active source has health to show.
        if (change.state === 'active')
          void this.health.measure(entry).catch(() => {})
      })
      .catch((error: Error) =>
        this.options.log.warn(
          `sources: ${entry.id} state not written: ${error.message}`,
        ),
      )
  }

  // Another server may claim these sources now: stop streaming them at once.
  private onClaimsLost(): void {
    this.options.log.warn(
      'sources: lost the control-plane session holding source claims; letting go of all',
    )
    for (const id of [...this.running.keys()]) void this.detach(id)
  }
}
