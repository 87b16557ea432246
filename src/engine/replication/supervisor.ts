// Keeps one database's replication running: publication and slot in place (recreated together
// when the slot is lost), the stream started, and restarted with backoff when it drops; paused
// while the database is idle (idle.ts), the slot keeping every change until it resumes.
import pg from 'pg'
import {
  ADDRESS_REFUSED,
  pinnedConnection,
  type HostPinner,
} from '../pg/pinned-socket.ts'
import {
  addTableToPublication,
  dropSlot,
  dropSlotAndPublication,
  ensurePublication,
  ensureSlot,
  slotHealth,
} from './slot.ts'
import { replicationNames, type ReplicationNames } from './names.ts'
import type { SpillOptions } from './assembler.ts'
import {
  checkPublication,
  ReplicationSetupError,
  TableBusyError,
} from './publication.ts'
import type { Queryable } from '../pg/sql.ts'
import { SILENCE_MS, startReplication } from './stream.ts'
import type { Relation, ReplicationHandler } from './types.ts'

/** `idle`: released for idleness (idle.ts), not a fault; the next request resumes it. */
export type SupervisorStatus =
  'starting' | 'active' | 'idle' | 'reconnecting' | 'error' | 'stopped'

export type SupervisorEvents = {
  /** `code`: the SQLSTATE or Node error code behind `reason`, when there is one. */
  onStatus?(status: SupervisorStatus, reason?: string, code?: string): void
  /** The slot was missing (first start, or dropped by someone) or lost its WAL, and was made. */
  onSlotRecreated?(cause: 'missing' | 'lost'): void
  /**
   * Statements that changed something on the user's database besides the slot and the empty
   * publication (a table's replica identity, the publication's tables or settings): each is
   * named to the user, never done silently.
   */
  onAltered?(statements: string[]): void
}

export type SupervisorOptions = {
  id: string
  connectionString: string
  sessionOptions: string
  handler: ReplicationHandler
  /** Runs before every stream start; `slotRecreated` means earlier shape logs are stale. */
  beforeStream(slotRecreated: boolean): Promise<void>
  /** Checks and pins the host's address on every connect; none for the operator's database. */
  pinHost?: HostPinner
  /** How long a silent connection is trusted, and the connect timeout (stream.ts). */
  silenceMs?: number
  /** Where transactions past the limit spill (replication/spill.ts). */
  spill?: SpillOptions
  /**
   * The slot's and publication's names: fixed, or found on the database at the first start
   * (the standalone engine's, standalone-names.ts). Unset: named by `id`.
   */
  names?: ReplicationNames | ((client: Queryable) => Promise<ReplicationNames>)
  /**
   * ELECTRIC_MANUAL_TABLE_PUBLISHING: the publication and the tables are set up by someone
   * else; the engine checks them and never creates, alters or drops the publication, nor
   * alters a table.
   */
  manualPublishing?: boolean
}

const STATUS_INTERVAL_MS = 1000
const BACKOFF_START_MS = 100
const BACKOFF_MAX_MS = 10_000
// Errors no retry will fix without someone changing the database: shown as `error`.
const FATAL_CODES = new Set([
  '42501',
  '55000',
  '28000',
  '28P01',
  '3D000',
  ADDRESS_REFUSED,
])
const INSUFFICIENT_PRIVILEGE = '42501'
// Postgres answering that it is starting up (or shutting down, or in recovery): it takes
// connections again in moments, typically. Asked again after the backoff grown while it was
// down (up to 10 s), every client of a restarted database waited that long for nothing: the
// backoff starts over instead (a database that keeps saying so is backed off from anew).
const CANNOT_CONNECT_NOW = '57P03'
/** How long a table found busy is left alone before publishing it is tried again. */
const BUSY_RETRY_MS = 5_000

export class ReplicationSupervisor {
  status: SupervisorStatus = 'starting'
  lastError: string | null = null
  /** Failed starts and streams since the engine began: each a retry to come. */
  failures = 0
  private stopped = false
  // Aborted by stop(): a stream still connecting then stops as soon as it exists.
  private readonly stopping = new AbortController()
  private stopStream: (() => Promise<void>) | null = null
  private wake: (() => void) | null = null
  // Set while paused: the loop waits on it, disconnected, until resume().
  private held: { promise: Promise<void>; resolve: () => void } | null = null
  private included = new Set<string>()
  // Tables whose lock was held by another transaction, and until when not to ask again.
  private busy = new Map<string, { error: TableBusyError; until: number }>()
  // Kept across reconnects so a schema change made while disconnected is still noticed.
  private relations = new Map<number, Relation>()
  private running: Promise<void> | null = null
  private resolved: ReplicationNames | null

  constructor(
    private readonly options: SupervisorOptions,
    private readonly events: SupervisorEvents,
  ) {
    const { names } = options
    this.resolved =
      names === undefined
        ? replicationNames(options.id)
        : typeof names === 'function'
          ? null
          : names
  }

  /** The slot's and publication's names: found on the database at the first start when not given. */
  get names(): ReplicationNames {
    if (!this.resolved)
      throw new Error(
        'replication names are found when replication first starts',
      )
    return this.resolved
  }

  private async namesOn(client: Queryable): Promise<ReplicationNames> {
    const { names } = this.options
    this.resolved ??= typeof names === 'function' ? await names(client) : null
    if (!this.resolved) throw new Error('replication names unresolved')
    return this.resolved
  }

  start(): void {
    this.running ??= this.loop()
  }

  async stop(): Promise<void> {
    this.stopped = true
    this.stopping.abort()
    this.resume()
    this.wake?.()
    await this.stopStream?.()
    await this.running
    this.setStatus('stopped')
  }

  /**
   * Ends the current stream and reconnects at once (also cutting a backoff wait short); the
   * slot, the publication and the shapes stay.
   */
  async restart(): Promise<void> {
    if (this.stopped) return
    this.wake?.()
    await this.stopStream?.()
  }

  /** Asks the running stream's server for its position now (see ReplicationStream). */
  requestPosition: () => void = () => {}

  /** Ends the stream and stays disconnected until resume(); slot and shapes stay. */
  async pause(): Promise<void> {
    if (this.stopped || this.held) return
    let resolve = () => {}
    const promise = new Promise<void>((r) => (resolve = r))
    this.held = { promise, resolve }
    this.wake?.()
    await this.stopStream?.()
  }

  resume(): void {
    this.held?.resolve()
    this.held = null
  }

  /** Stops and removes the slot and the publication. */
  async drop(): Promise<void> {
    await this.stop()
    await this.withClient(async (client) => {
      const names = await this.namesOn(client)
      // Someone else's publication stays theirs.
      if (this.options.manualPublishing) await dropSlot(client, names.slot)
      else await dropSlotAndPublication(client, names.slot, names.publication)
    })
  }

  /**
   * Adds a table to the publication (once) so its changes reach the engine. A table found busy
   * (TableBusyError) is not tried again for BUSY_RETRY_MS: each try may hold up its writers for
   * up to LOCK_WAIT_MS, and clients retry far more often than that. `again`: look
   * once more even if done (a partitioned table: partitions made since start without FULL).
   */
  async includeTable(
    schema: string,
    name: string,
    options: { again?: boolean } = {},
  ): Promise<void> {
    const key = `${schema}.${name}`
    if (this.included.has(key) && !options.again) return
    const busy = this.busy.get(key)
    if (busy && busy.until > Date.now()) throw busy.error
    try {
      const { ran } = await this.withClient(async (client) =>
        addTableToPublication(
          client,
          (await this.namesOn(client)).publication,
          schema,
          name,
          this.options.manualPublishing,
        ),
      )
      this.altered(ran)
    } catch (error) {
      if (
        error instanceof TableBusyError ||
        error instanceof ReplicationSetupError
      )
        this.altered(error.ran)
      if (error instanceof TableBusyError)
        this.busy.set(key, { error, until: Date.now() + BUSY_RETRY_MS })
      throw error
    }
    this.busy.delete(key)
    this.included.add(key)
  }

  private async withClient<T>(
    fn: (client: pg.Client) => Promise<T>,
  ): Promise<T> {
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      options: this.options.sessionOptions,
      connectionTimeoutMillis: this.options.silenceMs ?? SILENCE_MS,
      ...pinnedConnection(this.options.pinHost),
    })
    client.on('error', () => {})
    await client.connect()
    try {
      return await fn(client)
    } finally {
      await client.end().catch(() => {})
    }
  }

  private setStatus(status: SupervisorStatus, reason?: string, code?: string) {
    if (status === this.status && reason === (this.lastError ?? undefined))
      return
    this.status = status
    this.lastError = reason ?? null
    this.events.onStatus?.(status, reason, code)
  }

  private async loop(): Promise<void> {
    let delay = BACKOFF_START_MS
    while (!this.stopped) {
      if (this.held) {
        this.setStatus('idle')
        await this.held.promise
        continue
      }
      try {
        const { cause, names } = await this.withClient(async (client) => {
          const names = await this.namesOn(client)
          return { cause: await this.prepare(client, names), names }
        })
        const recreated = cause !== null
        if (cause) this.events.onSlotRecreated?.(cause)
        await this.options.beforeStream(recreated)
        if (this.stopped) break
        const stream = await startReplication({
          connectionString: this.options.connectionString,
          slot: names.slot,
          publication: names.publication,
          startLsn: 0n,
          handler: this.options.handler,
          relations: this.relations,
          // Confirm often: slot lag (WAL Postgres keeps for us) then stays near zero.
          statusIntervalMs: STATUS_INTERVAL_MS,
          signal: this.stopping.signal,
          pinHost: this.options.pinHost,
          silenceMs: this.options.silenceMs,
          spill: this.options.spill,
        })
        this.stopStream = () => stream.stop()
        this.requestPosition = () => stream.requestPosition()
        // Paused while it connected: it ends at once.
        if (this.held) await stream.stop()
        else this.setStatus('active')
        delay = BACKOFF_START_MS
        await stream.done
      } catch (error) {
        if (this.stopped) break
        // A setup step the role may not perform says which SQL fixes it: no retry will.
        const code =
          error instanceof ReplicationSetupError
            ? INSUFFICIENT_PRIVILEGE
            : (error as { code?: string }).code
        const reason = (error as Error).message
        this.failures++
        if (code === CANNOT_CONNECT_NOW) delay = BACKOFF_START_MS
        this.setStatus(
          code && FATAL_CODES.has(code) ? 'error' : 'reconnecting',
          reason,
          code,
        )
      } finally {
        this.stopStream = null
      }
      if (this.stopped) break
      if (this.held) continue
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay)
        this.wake = () => {
          clearTimeout(timer)
          resolve()
        }
      })
      delay = Math.min(delay * 2, BACKOFF_MAX_MS)
    }
  }

  private altered(statements: string[]): void {
    if (statements.length > 0) this.events.onAltered?.(statements)
  }

  // Publication and slot exist together; a lost slot means both are made anew (the
  // publication only checked when someone else keeps it). Answers why the slot was made, or
  // null when it was there.
  private async prepare(
    client: pg.Client,
    { slot, publication }: ReplicationNames,
  ): Promise<'missing' | 'lost' | null> {
    const manual = this.options.manualPublishing === true
    const health = await slotHealth(client, slot)
    if (health.exists && health.walStatus !== 'lost') {
      if (manual) await checkPublication(client, publication)
      else {
        const { ran } = await ensurePublication(client, publication)
        if (ran) this.altered([ran])
      }
      return null
    }
    if (manual) {
      await checkPublication(client, publication)
      await dropSlot(client, slot)
    } else {
      await dropSlotAndPublication(client, slot, publication)
      await ensurePublication(client, publication)
    }
    this.included.clear()
    await ensureSlot(client, slot)
    return health.exists ? 'lost' : 'missing'
  }
}
