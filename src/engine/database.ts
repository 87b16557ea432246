// One attached database: its publication and slot, the replication stream, and every shape
// over it. Its durability loop (durability.ts) lets Postgres recycle WAL only past what the
// logs hold. With an idle timeout, its connections are released while nothing asks
// (replication/idle.ts).
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import {
  applyTransaction,
  type TransactionTarget,
} from './apply-transaction.ts'
import { DurabilityLoop } from './durability.ts'
import { Journal } from './storage/journal.ts'
import {
  DEFAULT_LOG_LIMIT,
  POOL_SIZE,
  SESSION_OPTIONS,
  type DatabaseConfig,
} from './database-config.ts'
import { pinnedConnection } from './pg/pinned-socket.ts'
import { PRIVATE_DIR } from './storage/private-files.ts'
import { DEFAULT_SPILL_LIMIT } from './replication/spill.ts'
import type { Relation, Transaction } from './replication/types.ts'
import { SILENCE_MS } from './replication/stream.ts'
import {
  definitionKey,
  qualifiedName,
  sameDefinition,
  wantedColumns,
  type ShapeDefinition,
} from './shapes/definition.ts'
import { probeWrites } from './storage/disk-probe.ts'
import { fileLogs } from './storage/log-store.ts'
import { dropShapes, reopenShapes, whereFor } from './shapes/reopen.ts'
import { ShapeExpiry } from './shapes/expiry.ts'
import { PartitionMap } from './shapes/partitions.ts'
import { ShapeRouter } from './shapes/router.ts'
import { DependencyRoutes } from './shapes/subqueries/routes.ts'
import { CaughtUp } from './replication/caught-up.ts'
import {
  Shape,
  type Invalidation,
  type RotationCause,
  type ShapeFacts,
} from './shapes/shape.ts'
import { Invalidations, type SnapshotTime } from './shapes/invalidations.ts'
import { queryMoveIn, reloadDependencies } from './shapes/subqueries/queries.ts'
import type { MoverHooks } from './shapes/subqueries/mover.ts'
import { snapshotShape } from './shapes/snapshot.ts'
import { tableKey, TableWatch } from './shapes/table-watch.ts'
import {
  checkColumns,
  checkPublished,
  checkQueryable,
  loadTableInfo,
  SharedTableInfo,
  type TableInfo,
} from './shapes/table-info.ts'
import type { CompiledWhere } from './where/types.ts'
import { WhereError } from './where/index.ts'
import { ReplicationSupervisor } from './replication/supervisor.ts'
import {
  idleReleaseFor,
  observedEvents,
  type IdleRelease,
} from './replication/idle.ts'
import { UnavailableError } from './unavailable.ts'

// How often the catalog is asked whether shapes' tables were dropped or renamed (table-watch.ts).
const TABLE_CHECK_MS = 2_000

export class ShapeDatabase {
  globalLsn = 0n
  private changes = 0
  private spilled = 0
  private shapes = new Map<string, Shape>()
  private byKey = new Map<string, Shape>()
  private router = new ShapeRouter<Shape>()
  private dependencyRoutes = new DependencyRoutes<Shape>()
  private readonly caughtUp = new CaughtUp()
  private creating = new Map<string, Promise<Shape>>()
  private readonly journal: Journal
  private readonly durability: DurabilityLoop
  /** The last run's journal is written back into the logs before any is reopened. */
  private replayed = false
  private tableTimer: NodeJS.Timeout | null = null
  private readonly expiry: ShapeExpiry<Shape> | null
  private stopping = false
  // Shapes registered while a transaction is applied (it yields): their snapshots start after
  // it committed and so hold it already, like those of shapes created after it. It skips them
  // rather than give them only the changes routed after they appeared.
  private applying = false
  private joined = new Set<Shape>()
  private readonly target: TransactionTarget = {
    learn: (relation) => this.partitions.learn(relation),
    candidates: (relation, rows) => {
      this.tables.verify(relation)
      const table = tableKey(relation.schema, relation.name)
      const found = this.router.candidates(table, rows)
      // A partition's change is also a change of the partitioned tables above it.
      for (const above of this.partitions.ancestors(relation))
        for (const shape of this.router.candidates(above, rows))
          found.add(shape)
      this.dependencyRoutes.candidates(table, rows, found)
      return found
    },
    truncate: (change) => {
      for (const relation of change.relations)
        this.rotateRelation(relation, 'table truncated')
    },
    isLive: (shape) =>
      this.shapes.get(shape.handle) === shape &&
      !shape.closed &&
      !this.joined.has(shape),
    checkRunning: () => {
      if (this.stopping) throw new Error('the engine is stopping')
    },
    // Stopping, a shape's log keeps the part: reopened, it is cut back to the last whole one.
    drop: (shape) => {
      if (!this.stopping) this.rotate(shape, 'evicted', 'its change failed')
    },
  }
  readonly pool: pg.Pool
  readonly supervisor: ReplicationSupervisor
  private readonly idle: IdleRelease | null
  private readonly tables: TableWatch
  private readonly partitions: PartitionMap
  private readonly tableInfo = new SharedTableInfo()
  private readonly invalidations = new Invalidations()

  constructor(readonly config: DatabaseConfig) {
    this.pool = new pg.Pool({
      connectionString:
        config.connection?.poolConnectionString ?? config.connectionString,
      options: SESSION_OPTIONS,
      max: config.connection?.poolSize ?? POOL_SIZE,
      connectionTimeoutMillis: config.silenceMs ?? SILENCE_MS,
      // Every value stays Postgres text output, exactly as replication delivers it.
      types: { getTypeParser: () => (value: string) => value },
      // The pool opens connections lazily: each one is pinned when it is made.
      ...pinnedConnection(config.pinHost),
    })
    // A lost connection fails its statement; unheard, it would crash the process (the pool
    // listens on idle clients only).
    this.pool.on('error', () => {})
    this.pool.on('connect', (client) => client.on('error', () => {}))
    this.tables = new TableWatch(this.pool, (key, detail) =>
      this.rotateKey(key, detail),
    )
    this.expiry =
      config.maxShapes === undefined
        ? null
        : new ShapeExpiry({
            maxShapes: config.maxShapes,
            periodMs: config.expiryPeriodMs,
            shapes: () => this.shapes,
            active: () => this.supervisor.status === 'active',
            remove: (shape) =>
              this.rotate(shape, 'evicted', 'least recently used'),
          })
    this.partitions = new PartitionMap(this.pool, (key) =>
      this.rotateKey(key, 'partitions changed'),
    )
    mkdirSync(this.shapesDir, { recursive: true, mode: PRIVATE_DIR })
    this.journal = new Journal(join(config.dataDir, 'journal'), this.shapesDir)
    this.durability = new DurabilityLoop(
      this.journal,
      (shape) => this.shapes.get(shape.handle) === shape,
    )
    // Spill files of a process that stopped or crashed: their transactions come again.
    rmSync(this.spillDir, { recursive: true, force: true })
    mkdirSync(this.spillDir, { recursive: true, mode: PRIVATE_DIR })
    this.supervisor = new ReplicationSupervisor(
      {
        id: config.id,
        connectionString: config.connectionString,
        sessionOptions: SESSION_OPTIONS,
        silenceMs: config.silenceMs,
        handler: {
          onTransaction: (tx) => this.applyInTurn(tx),
          onCaughtUp: (lsn) => this.caughtUp.advance(lsn),
          // A renamed table's shapes are registered under its old name: rotate those too.
          onRelationChanged: (previous, next) => {
            this.rotateRelation(previous, 'table renamed')
            this.rotateRelation(next, 'table renamed')
          },
          flushedLsn: (caughtUp) => this.durability.confirmable(caughtUp),
        },
        beforeStream: (slotRecreated) => this.beforeStream(slotRecreated),
        pinHost: config.pinHost,
        spill: {
          dir: this.spillDir,
          limit: config.spillLimit ?? DEFAULT_SPILL_LIMIT,
        },
        names: config.connection?.names,
        manualPublishing: config.connection?.manualPublishing,
      },
      observedEvents(config.events ?? {}, () => this.idle),
    )
    this.idle = idleReleaseFor(config.replicationIdleTimeoutMs, {
      waiting: () => this.waitingRequests(),
      replication: this.supervisor,
      pool: this.pool,
    })
  }

  get shapesDir(): string {
    return join(this.config.dataDir, 'shapes')
  }

  /** Transactions past the spill limit, while they are received and applied. */
  get spillDir(): string {
    return join(this.config.dataDir, 'spill')
  }

  get status() {
    return this.supervisor.status
  }

  /** Replication's failures so far (a retry follows each): a stuck source's count grows. */
  get replicationFailures(): number {
    return this.supervisor.failures
  }

  /** Why replication is not active (the last error), or null. */
  get statusReason(): string | null {
    return this.supervisor.status === 'active'
      ? null
      : this.supervisor.lastError
  }

  start(): void {
    this.durability.start()
    this.tableTimer = setInterval(() => void this.checkTables(), TABLE_CHECK_MS)
    this.expiry?.start()
    this.supervisor.start()
    this.idle?.start()
  }

  async stop(): Promise<void> {
    this.stopping = true
    this.idle?.stop()
    this.durability.stop()
    if (this.tableTimer) clearInterval(this.tableTimer)
    this.expiry?.stop()
    await this.supervisor.stop()
    await this.durability.flush()
    await this.journal.close()
    for (const shape of this.shapes.values()) shape.log.close()
    await this.pool.end().catch(() => {})
  }

  /** Stops streaming and removes the slot, the publication and every shape log. */
  async destroy(): Promise<void> {
    this.stopping = true
    this.idle?.stop()
    this.durability.stop()
    if (this.tableTimer) clearInterval(this.tableTimer)
    this.expiry?.stop()
    await this.supervisor.drop()
    await this.journal.close()
    for (const shape of this.shapes.values()) shape.log.destroy()
    this.shapes.clear()
    rmSync(this.config.dataDir, { recursive: true, force: true })
    await this.pool.end().catch(() => {})
  }

  byHandle(handle: string): Shape | undefined {
    return this.shapes.get(handle)
  }

  /**
   * The live shape a request names by its handle, if the request's definition is that shape's
   * as written: found without building the definition's key, which every live request would
   * (shapeFor). Null leaves it to shapeFor, as while released for idleness: shapeFor waits
   * for replication to resume.
   */
  liveShapeFor(handle: string, definition: ShapeDefinition): Shape | null {
    if (this.idle?.request()) return null
    const shape = this.shapes.get(handle)
    return shape &&
      this.byKey.get(shape.key) === shape &&
      sameDefinition(shape.definition, definition)
      ? shape
      : null
  }

  findByKey(key: string): Shape | undefined {
    return this.byKey.get(key)
  }

  /**
   * Row changes (inserts, updates, deletes, truncates) received from replication since this
   * database was attached, whether or not a shape wanted them: read by operators' metrics.
   */
  get changesReceived(): number {
    return this.changes
  }

  /** Transactions received since attached that were past the spill limit (went to disk). */
  get spilledTransactions(): number {
    return this.spilled
  }

  /** Requests waiting on any of this database's shapes for a change: its live clients. */
  waitingRequests(): number {
    let waiting = 0
    for (const shape of this.shapes.values()) waiting += shape.waitingRequests
    return waiting
  }

  /** Every live shape's facts, from memory. */
  shapeFacts(): ShapeFacts[] {
    return [...this.shapes.values()].map((shape) => shape.facts())
  }

  /**
   * Records written to shape logs since attached, rotated shapes' included: one change on 100
   * shapes is 100 writes (the unit Electric Cloud billed).
   */
  get writesEmitted(): number {
    let writes = this.invalidations.writesOfRotated
    for (const shape of this.shapes.values()) writes += shape.changesWritten
    return writes
  }

  /** The rotations recorded after `seq` (the newest 1,000 are kept), oldest first. */
  invalidationsAfter(seq: number): readonly Invalidation[] {
    return this.invalidations.after(seq)
  }

  /** Snapshots completed after `at` (ms since the epoch; the newest 100 are kept). */
  snapshotsAfter(at: number): readonly SnapshotTime[] {
    return this.invalidations.snapshotsAfter(at)
  }

  /** The live shape for a definition, created (snapshot started) when there is none. */
  async shapeFor(definition: ShapeDefinition): Promise<Shape> {
    const waking = this.idle?.request()
    if (waking) await waking
    const key = definitionKey(definition)
    const existing = this.byKey.get(key)
    if (existing) return existing
    let creating = this.creating.get(key)
    if (!creating) {
      creating = this.createShape(definition).finally(() =>
        this.creating.delete(key),
      )
      this.creating.set(key, creating)
    }
    return creating
  }

  /**
   * Ends a shape: its clients get 409 and start again on a new one. `cause` and `detail` go to
   * the invalidation log (shapes/invalidations.ts).
   */
  rotate(
    shape: Shape,
    cause: RotationCause,
    detail: string | null = null,
  ): void {
    if (this.shapes.get(shape.handle) !== shape) return
    this.invalidations.rotated(shape, cause, detail)
    this.shapes.delete(shape.handle)
    if (this.byKey.get(shape.key) === shape) this.byKey.delete(shape.key)
    this.router.remove(shape)
    this.dependencyRoutes.remove(shape)
    this.durability.forget(shape)
    shape.fail(new Error('rotated'))
    shape.log.destroy()
    this.config.onShapesChanged?.()
  }

  /** A table changed: its shapes start over (a schema change). */
  rotateTable(schema: string, name: string, detail: string): void {
    this.rotateKey(tableKey(schema, name), detail)
  }

  private rotateKey(key: string, detail: string): void {
    for (const shape of this.router.shapesOf(key))
      this.rotate(shape, 'schema_change', detail)
    // A table a subquery reads was dropped, renamed or changed: its shapes start over too.
    for (const shape of this.dependencyRoutes.shapesOf(key))
      this.rotate(shape, 'dependency', `${key}: ${detail}`)
  }

  /** A relation's shapes, and those of the partitioned tables above it. */
  private rotateRelation(relation: Relation, detail: string): void {
    this.rotateTable(relation.schema, relation.name, detail)
    for (const above of this.partitions.ancestors(relation))
      this.rotateKey(above, detail)
  }

  /** Rotates every shape (a cache clear, or the slot lost); answers how many there were. */
  rotateAll(cause: RotationCause = 'clear_cache'): number {
    const shapes = [...this.shapes.values()]
    for (const shape of shapes) this.rotate(shape, cause)
    return shapes.length
  }

  /** Reconnects the replication stream; shapes and their logs stay. */
  restartStream(): Promise<void> {
    return this.supervisor.restart()
  }

  private async createShape(definition: ShapeDefinition): Promise<Shape> {
    if (this.supervisor.status !== 'active')
      throw new UnavailableError('The database is not reachable yet')
    const info = this.tableInfo.share(
      await loadTableInfo(this.pool, definition.table),
    )
    checkQueryable(info, definition.queryable ?? null)
    checkColumns(info, definition.columns, definition.queryable ?? null)
    checkPublished(info, wantedColumns(definition))
    const read: TableInfo[] = []
    const where = await whereFor(definition, info, async (table) => {
      const found = this.tableInfo.share(await loadTableInfo(this.pool, table))
      read.push(found)
      return found
    })
    // The tables its subqueries read replicate too, and are watched like its own.
    for (const dependency of read) {
      // Their changes would arrive named by partition, which the subquery does not follow.
      if (dependency.partitioned)
        throw new WhereError(
          `a subquery of a partitioned table (${qualifiedName(dependency.table)}) is not supported`,
        )
      checkPublished(dependency, null)
      await this.supervisor.includeTable(
        dependency.table.schema,
        dependency.table.name,
        { again: dependency.partitioned },
      )
      this.tables.remember(dependency)
    }
    // A partitioned table's partitions made since it was published lack FULL identity.
    await this.supervisor.includeTable(
      definition.table.schema,
      definition.table.name,
      { again: info.partitioned },
    )
    this.tables.remember(info)
    if (info.partitioned)
      await this.partitions.watch(
        tableKey(info.table.schema, info.table.name),
        info.oid,
      )
    const shape = Shape.forTable(
      fileLogs,
      this.shapesDir,
      definition,
      info,
      where,
    )
    this.durability.hold(shape)
    this.register(shape, where)
    void this.snapshot(shape, where)
    return shape
  }

  private register(shape: Shape, where: CompiledWhere | null): void {
    if (this.applying) this.joined.add(shape)
    if (!shape.ready) shape.replaced = this.invalidations.successorOf(shape.key)
    this.shapes.set(shape.handle, shape)
    this.byKey.set(shape.key, shape)
    const { schema, name } = shape.definition.table
    const equalities = where?.equalities ?? []
    const mover = shape.mover
    const index = mover?.subqueries.plan.index
    // Found by a constant if it has one, else by its subquery's values, as they move.
    if (mover && index && equalities.length === 0) {
      this.router.addByValues(shape, tableKey(schema, name), index.column)
      mover.subqueries.filing = {
        file: (value) => this.router.fileValue(shape, value),
        unfile: (value) => this.router.unfileValue(shape, value),
      }
    } else this.router.add(shape, tableKey(schema, name), equalities)
    if (mover) {
      mover.hooks = this.moverHooks(shape)
      this.dependencyRoutes.add(shape, mover.subqueries)
    }
    this.config.onShapesChanged?.()
  }

  /** What a shape with subqueries asks of its database (subqueries/mover.ts). */
  private moverHooks(shape: Shape): MoverHooks {
    const mover = shape.mover as NonNullable<Shape['mover']>
    return {
      moveIn: (where) =>
        queryMoveIn(
          this.pool,
          shape.definition.table,
          shape.readColumns,
          where,
        ),
      reload: () => reloadDependencies(this.pool, mover.subqueries),
      delivered: (lsn) =>
        this.caughtUp.reach(
          lsn,
          () => this.supervisor.requestPosition(),
          () => this.stopping,
        ),
      globalLsn: () => this.globalLsn,
      rotate: (detail) => this.rotate(shape, 'dependency', detail),
      appended: () => {
        if (this.shapes.get(shape.handle) !== shape) return
        this.durability.touched(shape)
        shape.publish()
      },
      // Its own key: a move-in may start while the shape's snapshot still holds.
      hold: (upTo) => this.durability.hold(mover, upTo),
      release: () => this.durability.release(mover),
    }
  }

  private async snapshot(
    shape: Shape,
    where: CompiledWhere | null,
  ): Promise<void> {
    const started = performance.now()
    try {
      await snapshotShape(this.pool, shape, where)
      shape.snapshotMs = Math.round(performance.now() - started)
      this.invalidations.snapshotted(shape.snapshotMs)
      this.durability.touched(shape)
      this.config.onShapesChanged?.()
    } catch (error) {
      this.failShape(shape, error as Error)
    } finally {
      this.durability.release(shape)
    }
  }

  private failShape(shape: Shape, error: Error): void {
    // Never ready, so no client held its rows: not an invalidation (shapes/invalidations.ts).
    this.rotate(shape, 'evicted', 'its snapshot failed')
    shape.fail(error)
  }

  /**
   * One transaction at a time across sessions: a session that fails does not wait for the
   * transaction it handed over (a spilled one can take minutes), and the next session hands it
   * over again. It must then find it applied (and skip it), never apply it alongside.
   */
  private inTurn: Promise<void> = Promise.resolve()

  private applyInTurn(tx: Transaction): Promise<void> {
    const applied = this.inTurn.then(() => this.onTransaction(tx))
    this.inTurn = applied.catch(() => {})
    return applied
  }

  private async onTransaction(tx: Transaction): Promise<void> {
    this.idle?.activity()
    this.changes += tx.spilled?.count ?? tx.changes.length
    if (tx.spilled) this.spilled++
    this.applying = true
    let touched: Shape[]
    try {
      touched = await applyTransaction(tx, this.target)
    } finally {
      this.applying = false
      this.joined.clear()
    }
    this.durability.processedEnd = tx.endLsn
    // The global LSN moves before readers see the transaction anywhere, and after every
    // shape holds it: an up-to-date can never claim an LSN a shape has not received yet.
    this.globalLsn = tx.commitLsn
    const limit = this.config.logLimit ?? DEFAULT_LOG_LIMIT
    for (const shape of touched) {
      this.durability.touched(shape)
      shape.publish()
      // Bounded disk: a log far larger than a fresh snapshot would be is replaced by one.
      const bytes = shape.log.bytes
      if (
        bytes > limit.minBytes &&
        bytes > shape.snapshotBytes * limit.growthFactor
      )
        this.rotate(shape, 'evicted', 'its log outgrew a fresh snapshot')
    }
  }

  /** Rotates the shapes of tables dropped or renamed since they were built. */
  private async checkTables(): Promise<void> {
    if (this.supervisor.status !== 'active') return
    await this.tables.check()
    await this.partitions
      .check((key) => this.router.hasTable(key))
      .catch(() => {}) // unreachable: the supervisor sees to that; next time
  }

  /** Before each stream starts: reload shapes kept on disk, or drop them all after slot loss. */
  private async beforeStream(slotRecreated: boolean): Promise<void> {
    // A disk that cannot take the logs: replication waits (reconnecting, saying why).
    await probeWrites(this.shapesDir)
    if (!this.replayed) {
      await this.journal.replay()
      this.replayed = true
    }
    if (slotRecreated) {
      this.rotateAll('slot_lost')
      dropShapes(this.shapesDir)
      return
    }
    if (this.shapes.size > 0) return
    for (const { shape, where, info, dependencies } of await reopenShapes(
      this.pool,
      fileLogs,
      this.shapesDir,
    )) {
      this.tables.remember(info)
      for (const dependency of dependencies) this.tables.remember(dependency)
      if (info.partitioned)
        await this.partitions.watch(
          tableKey(info.table.schema, info.table.name),
          info.oid,
        )
      this.register(shape, where)
      // Its subqueries read again: what changed while the engine was down moves.
      void shape.mover?.resume()
    }
    // Up-to-dates must not claim less than what reopened logs already hold.
    for (const shape of this.shapes.values())
      if (shape.lastOffset.tx > this.globalLsn)
        this.globalLsn = shape.lastOffset.tx
  }
}
