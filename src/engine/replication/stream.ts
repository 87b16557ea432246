// One logical replication session: START_REPLICATION over a replication connection, hands
// committed transactions to the handler one at a time, and reports what may be confirmed.
import {
  TransactionAssembler,
  type AssemblerEvent,
  type SpillOptions,
} from './assembler.ts'
import {
  connectForReplication,
  type CopyBothConnection,
  type ReplicationClient,
} from '../pg/replication-connection.ts'
import type { HostPinner } from '../pg/pinned-socket.ts'
import { formatLsn, maxLsn } from '../pg/lsn.ts'
import { decodePgOutput } from '../pg/pgoutput.ts'
import { quoteIdent, quoteLiteral } from '../pg/sql.ts'
import type { Lsn, Relation, ReplicationHandler } from './types.ts'
import { decodeServerMessage, encodeStatusUpdate } from '../pg/wire.ts'

export type StartReplicationOptions = {
  connectionString: string
  slot: string
  publication: string
  /** Where to resume; Postgres starts at the slot's confirmed_flush_lsn if that is later. */
  startLsn: Lsn
  handler: ReplicationHandler
  statusIntervalMs?: number
  signal?: AbortSignal
  /** Extra startup options (`-c name=value ...`); the display settings are always applied. */
  sessionOptions?: string
  /**
   * The relation cache. Pass the same map to the next session after a reconnect so a schema
   * change made while disconnected still reaches onRelationChanged.
   */
  relations?: Map<number, Relation>
  /** Checks and pins the host's address on connect (a user's database); none: connect as is. */
  pinHost?: HostPinner
  /**
   * How long the server may say nothing before the connection counts as gone (SILENCE_MS by
   * default). Also the connect timeout.
   */
  silenceMs?: number
  /** Where a transaction past the limit spills (spill.ts); none: all in memory. */
  spill?: SpillOptions
}

export type ReplicationStream = {
  /**
   * Confirms handler.flushedLsn() one last time and closes the session. Waits for an
   * onTransaction call in flight (so never await it from inside the handler); queued
   * transactions are not delivered: they were not confirmed and come again next session.
   */
  stop(): Promise<void>
  /** Resolves after stop(); rejects when the connection, the server or the handler fails. */
  done: Promise<void>
  /** Asks the server for its position now (a keepalive), rather than at its next one. */
  requestPosition(): void
}

const DEFAULT_STATUS_INTERVAL_MS = 10_000
/** Stop reading the socket while this much decoded data awaits the handler. */
const PAUSE_ABOVE_BYTES = 32 * 1024 * 1024
const RESUME_BELOW_BYTES = 8 * 1024 * 1024
/** Stop reading the socket while this much of a spilling transaction waits for its file. */
const SPILL_BACKLOG_BYTES = 8 * 1024 * 1024
/** How long stop() waits for the server to end COPY before dropping the socket. */
const STOP_GRACE_MS = 5_000
/**
 * A network that stops forwarding without closing (a partition, a dead NAT entry) leaves a
 * socket open and silent for as long as TCP retries, many minutes. The server answers a status
 * update that asks for a reply at once, so half this long without a word from it we ask; this
 * long and the connection is taken for gone, and the supervisor reconnects.
 */
export const SILENCE_MS = 30_000

type Delivery = (AssemblerEvent | { kind: 'caughtUp'; lsn: Lsn }) & {
  bytes: number
}

/**
 * Resolves once the server streams (CopyBothResponse); rejects when connecting or
 * START_REPLICATION fails, e.g. a missing slot or one in use by another session.
 */
export async function startReplication(
  options: StartReplicationOptions,
): Promise<ReplicationStream> {
  options.signal?.throwIfAborted()
  const replication = await connectForReplication(
    options.connectionString,
    options.sessionOptions,
    options.pinHost,
    options.silenceMs ?? SILENCE_MS,
  )
  const session = new Session(replication, options)
  try {
    await session.start()
  } catch (error) {
    await session.abandon()
    throw error
  }
  const stop = () => session.stop()
  const { signal } = options
  if (signal?.aborted) {
    // Aborted while connecting: the listener below would never fire, and a caller that has
    // already asked to stop has no stream to stop.
    await stop()
    signal.throwIfAborted()
  }
  if (signal) {
    const onAbort = () => void stop()
    signal.addEventListener('abort', onAbort, { once: true })
    const forget = () => signal.removeEventListener('abort', onAbort)
    session.done.then(forget, forget)
  }
  return {
    stop,
    done: session.done,
    requestPosition: () => session.requestPosition(),
  }
}

class Session {
  readonly done: Promise<void>
  private resolveDone!: () => void
  private rejectDone!: (error: unknown) => void
  private readonly client: ReplicationClient['client']
  private readonly connection: CopyBothConnection
  private readonly assembler: TransactionAssembler
  private readonly queue: Delivery[] = []
  private queuedBytes = 0
  /** Bytes of the transaction being received, charged to the queue when it commits. */
  private openBytes = 0
  /** Why the socket is not read: the queue is full, or a spill waits for the disk. */
  private readonly pauses = new Set<'queue' | 'spill'>()
  /** Every transaction committed below this has been delivered (see flushedLsn). */
  private caughtUp: Lsn = 0n
  private draining: Promise<void> | null = null
  private streaming: Promise<unknown> | null = null
  private timer: NodeJS.Timeout | undefined
  private stopping: Promise<void> | null = null
  private finished = false
  /** When the server last sent anything (performance.now()), or when we stopped reading. */
  private lastHeard = performance.now()
  private silenceTimer: NodeJS.Timeout | undefined

  constructor(
    replication: ReplicationClient,
    private readonly options: StartReplicationOptions,
  ) {
    this.client = replication.client
    this.connection = replication.connection
    this.assembler = new TransactionAssembler(options.relations, options.spill)
    this.done = new Promise((resolve, reject) => {
      this.resolveDone = resolve
      this.rejectDone = reject
    })
    this.client.on('error', (error) => this.fail(error))
    this.connection.on('copyData', (message) => this.receive(message.chunk))
  }

  async start(): Promise<void> {
    const { slot, publication, startLsn } = this.options
    const started = new Promise<void>((resolve) =>
      this.connection.once('replicationStart', resolve),
    )
    const names = quoteLiteral(quoteIdent(publication))
    const command =
      `START_REPLICATION SLOT ${quoteIdent(slot)} LOGICAL ${formatLsn(startLsn)} ` +
      `(proto_version '1', publication_names ${names})`
    // The query settles only when streaming ends: resolved after our CopyDone, rejected
    // with the server's error (terminated backend, dropped slot...).
    this.streaming = this.client.query(command).then(
      () => this.fail(new Error('the server ended the replication stream')),
      (error: unknown) => this.fail(error),
    )
    await Promise.race([
      started,
      this.done.then(() => {
        throw new Error('replication stopped before it started')
      }),
    ])
    const interval = this.options.statusIntervalMs ?? DEFAULT_STATUS_INTERVAL_MS
    this.timer = setInterval(() => this.sendStatus(), interval)
    const silence = this.options.silenceMs ?? SILENCE_MS
    this.lastHeard = performance.now()
    this.silenceTimer = setInterval(
      () => this.checkSilence(silence),
      Math.max(10, Math.floor(silence / 4)),
    )
  }

  private checkSilence(silence: number): void {
    if (this.finished || this.stopping) return
    // Not reading (back-pressure): the server's quiet is ours.
    if (this.pauses.size > 0) this.lastHeard = performance.now()
    const quiet = performance.now() - this.lastHeard
    if (quiet > silence) {
      this.fail(
        new Error(
          `no word from the server in ${Math.round(quiet / 1000)} s: the connection is gone`,
        ),
      )
      // A polite end waits for the server's answer, which a dead path never brings.
      this.connection.stream.destroy()
    } else if (quiet > silence / 2) this.sendStatus(true)
  }

  stop(): Promise<void> {
    this.stopping ??= this.shutDown()
    return this.stopping
  }

  /** After a failed start: nobody will see `done`, so its rejection must not go unhandled. */
  async abandon(): Promise<void> {
    this.done.catch(() => {})
    this.fail(new Error('replication did not start'))
    await this.client.end().catch(() => {})
  }

  private async shutDown(): Promise<void> {
    clearInterval(this.timer)
    clearInterval(this.silenceTimer)
    if (this.finished) return
    await this.draining
    if (this.finished) return
    // Incoming data is ignored from here on, but the server's replies must still be read.
    this.connection.stream.resume()
    this.sendStatus()
    this.connection.endCopyFrom()
    let grace: NodeJS.Timeout | undefined
    await Promise.race([
      this.streaming,
      new Promise((resolve) => (grace = setTimeout(resolve, STOP_GRACE_MS))),
    ])
    clearTimeout(grace)
    this.finish()
    await this.client.end().catch(() => {})
  }

  private receive(chunk: Buffer): void {
    this.lastHeard = performance.now()
    if (this.finished || this.stopping) return
    try {
      const message = decodeServerMessage(chunk)
      if (message?.tag === 'keepalive') {
        // Inside a transaction the server's position says nothing about what we delivered.
        if (!this.assembler.inTransaction) this.caughtUpTo(message.walEnd)
        if (message.replyRequested) this.sendStatus()
      } else if (message?.tag === 'xlogData') {
        this.openBytes += chunk.length
        const event = this.assembler.push(
          decodePgOutput(message.data),
          chunk.length,
        )
        if (event) {
          // A spilled transaction's changes wait on disk, not in the queue's memory.
          const spilled =
            event.kind === 'transaction' && event.transaction.spilled
          this.enqueue({ ...event, bytes: spilled ? 0 : this.openBytes })
          this.openBytes = 0
        }
        if (this.assembler.spillBacklog >= SPILL_BACKLOG_BYTES)
          this.waitForSpill()
      }
    } catch (error) {
      this.fail(error)
    }
  }

  /** Positions behind a slow handler collapse into one: only the latest matters. */
  private caughtUpTo(lsn: Lsn): void {
    const last = this.queue.at(-1)
    if (last?.kind === 'caughtUp') last.lsn = maxLsn(last.lsn, lsn)
    else this.enqueue({ kind: 'caughtUp', lsn, bytes: 0 })
  }

  private enqueue(delivery: Delivery): void {
    this.queue.push(delivery)
    this.queuedBytes += delivery.bytes
    if (this.queuedBytes > PAUSE_ABOVE_BYTES) this.pause('queue')
    this.draining ??= this.drain()
  }

  private pause(reason: 'queue' | 'spill'): void {
    if (this.pauses.size === 0) this.connection.stream.pause()
    this.pauses.add(reason)
  }

  private resume(reason: 'queue' | 'spill'): void {
    if (!this.pauses.delete(reason) || this.pauses.size > 0) return
    if (!this.finished) this.connection.stream.resume()
  }

  /** The spill file's writes fall behind the socket: read again once they caught up. */
  private waitForSpill(): void {
    if (this.pauses.has('spill')) return
    this.pause('spill')
    this.assembler.spillDrained(SPILL_BACKLOG_BYTES / 2).then(
      () => this.resume('spill'),
      (error: unknown) => this.fail(error),
    )
  }

  /** Back-pressure: one delivery at a time, in arrival order. */
  private async drain(): Promise<void> {
    try {
      while (!this.finished && !this.stopping) {
        const delivery = this.queue.shift()
        if (!delivery) break
        this.queuedBytes -= delivery.bytes
        if (this.queuedBytes < RESUME_BELOW_BYTES) this.resume('queue')
        await this.deliver(delivery)
      }
    } catch (error) {
      this.fail(error)
    } finally {
      // Synchronous with the empty-queue check above, so no arrival can slip between.
      this.draining = null
    }
  }

  private async deliver(delivery: Delivery): Promise<void> {
    const { handler } = this.options
    switch (delivery.kind) {
      case 'transaction':
        try {
          await handler.onTransaction(delivery.transaction)
        } finally {
          await delivery.transaction.spilled?.remove()
        }
        this.advance(delivery.transaction.endLsn)
        return
      case 'emptyTransaction':
        this.advance(delivery.endLsn)
        return
      case 'caughtUp':
        this.advance(delivery.lsn)
        return
      case 'relationChanged':
        handler.onRelationChanged?.(delivery.previous, delivery.next)
        return
    }
  }

  private advance(lsn: Lsn): void {
    if (lsn <= this.caughtUp) return
    this.caughtUp = lsn
    this.options.handler.onCaughtUp?.(lsn)
  }

  /** Asks the server where it stands: its answer (a keepalive) moves caughtUp on. */
  requestPosition(): void {
    this.sendStatus(true)
  }

  /** Confirms exactly what the handler allows: never more than flushedLsn() returns. */
  private sendStatus(replyRequested = false): void {
    if (this.finished) return
    try {
      const lsn = this.options.handler.flushedLsn(this.caughtUp)
      this.connection.sendCopyFromChunk(
        encodeStatusUpdate({
          written: lsn,
          flushed: lsn,
          applied: lsn,
          replyRequested,
        }),
      )
    } catch (error) {
      this.fail(error)
    }
  }

  private finish(): void {
    if (this.finished) return
    this.finished = true
    clearInterval(this.timer)
    clearInterval(this.silenceTimer)
    this.removeSpills()
    this.resolveDone()
  }

  /** Spill files of transactions this session will not deliver: they come again next time. */
  private removeSpills(): void {
    void this.assembler.abandon().catch(() => {})
    for (const delivery of this.queue.splice(0))
      if (delivery.kind === 'transaction')
        void delivery.transaction.spilled?.remove().catch(() => {})
  }

  private fail(error: unknown): void {
    if (this.finished) return
    // Errors while we stop (the socket closing under us) are the stop itself.
    if (this.stopping) return this.finish()
    this.finished = true
    clearInterval(this.timer)
    clearInterval(this.silenceTimer)
    this.removeSpills()
    this.rejectDone(error)
    this.connection.stream.resume()
    void this.client.end().catch(() => {})
  }
}
