// A shape log's appends reach the file grouped (group commit): they wait in memory until the
// engine's next flush (sync), or until a megabyte is waiting, and go in one write off the event
// loop. A write per transaction per shape, each a synchronous syscall, took 7-10% of the
// engine's time at 1,000 busy shapes (bench:engine --cpu-profile), and so did the threadpool
// calls that replaced them one for one: now a busy shape costs a write and an fdatasync per
// flush, whatever its changes/s. Readers see appended bytes at once: what the file does not hold
// yet is read from memory (readAt). Durability is unchanged: sync() writes everything appended,
// then fdatasyncs, and only then may the slot be confirmed past it; a crash loses only what
// replication sends again. Small appends need not wait for their own fdatasync: the flush
// takes them (takeJournal) into the database's journal, one fdatasync for every log
// (journal.ts), and the file is synced later, at a checkpoint.
import { fdatasync, readSync, writev } from 'node:fs'
import { fdCache } from './fd-cache.ts'

/** Appends held in memory before a write starts without waiting for the flush. */
export const WRITE_AFTER_BYTES = 1024 * 1024
/**
 * Appends kept for the journal between flushes. Past this (a snapshot, a spilled transaction)
 * the log is synced on its own instead: a large write costs one fdatasync either way, and the
 * journal would hold it twice.
 */
const JOURNAL_LIMIT_BYTES = 256 * 1024

/** What a log gained since the last take: `chunks` belong at `pos`; `sync`: too much, sync it. */
export type JournalTake = { pos: number; chunks: Buffer[] } | 'sync' | null

export class LogWriter {
  /** Appended, not yet handed to a write. */
  private queued: Buffer[] = []
  private queuedBytes = 0
  /** Handed to the write in flight. */
  private inflight: Buffer[] = []
  private inflightBytes = 0
  private writing: Promise<void> | null = null
  /** The last write's error, until a write succeeds: appends are refused meanwhile. */
  private failure: Error | null = null
  private closed = false
  /** Appended since the last journal take, from `journaledEnd`; null past the limit. */
  private unjournaled: Buffer[] | null = []
  private unjournaledBytes = 0
  private journaledEnd: number

  /** `written`: the file's length, all of it the log's. */
  constructor(
    private readonly path: string,
    private written: number,
  ) {
    this.journaledEnd = written
  }

  /** Bytes appended so far, on file or not. */
  get end(): number {
    return this.written + this.inflightBytes + this.queuedBytes
  }

  /**
   * Queues the bytes at the end. Throws while the last write failed (a full disk): the caller's
   * transaction is then not applied, and replication retries it, as a failed synchronous write
   * did before.
   */
  append(buffer: Buffer): void {
    if (this.failure) throw this.failure
    this.queued.push(buffer)
    this.queuedBytes += buffer.length
    if (this.unjournaled) {
      this.unjournaled.push(buffer)
      this.unjournaledBytes += buffer.length
      if (this.unjournaledBytes > JOURNAL_LIMIT_BYTES) this.unjournaled = null
    }
    if (this.queuedBytes >= WRITE_AFTER_BYTES) this.start()
  }

  /**
   * The appends since the last take, for the journal; or `sync` when they outgrew what it
   * takes, and the caller must syncTaken() instead; or null when there are none.
   */
  takeJournal(): JournalTake {
    if (this.end === this.journaledEnd) return null
    if (!this.unjournaled) return 'sync'
    const take = { pos: this.journaledEnd, chunks: this.unjournaled }
    this.journaledEnd = this.end
    this.unjournaled = []
    this.unjournaledBytes = 0
    return take
  }

  /**
   * The journal could not hold a take from `pos`: the next take says `sync`, for everything
   * from there.
   */
  untake(pos: number): void {
    if (pos >= this.journaledEnd) return
    this.journaledEnd = pos
    this.unjournaled = null
  }

  /** After a `sync` take: makes everything appended durable here, so the journal need not. */
  async syncTaken(): Promise<void> {
    const target = this.end
    await this.sync()
    if (this.journaledEnd < target) this.journaledEnd = target
    // Appends made meanwhile were not collected (past the limit): the next take says `sync`.
    if (this.end === this.journaledEnd) {
      this.unjournaled = []
      this.unjournaledBytes = 0
    }
  }

  /** Writes everything appended so far (not what is appended meanwhile), then makes it durable. */
  async sync(): Promise<void> {
    const target = this.end
    // One more try after a failure: space may have come back.
    this.failure = null
    this.start()
    while (this.written < target) {
      if (!this.writing)
        throw this.failure ?? new Error('the log is closed: nothing is written')
      await this.writing
      if (this.failure) throw this.failure
    }
    await fdCache.pinned(
      this.path,
      (fd) =>
        new Promise<void>((resolve, reject) =>
          fdatasync(fd, (error) => (error ? reject(error) : resolve())),
        ),
    )
  }

  /**
   * Waits while more than `bytes` appended wait in memory for their write: a transaction of
   * millions of rows appended in parts would otherwise queue faster than the disk takes it.
   */
  async drained(bytes: number): Promise<void> {
    while (this.inflightBytes + this.queuedBytes > bytes && this.writing)
      await this.writing
  }

  /** `size` bytes at `pos` (within end), from the file and then from memory. */
  readAt(pos: number, size: number): Buffer {
    const block = Buffer.alloc(size)
    const fromFile = Math.max(0, Math.min(size, this.written - pos))
    if (fromFile > 0) readSync(fdCache.use(this.path), block, 0, fromFile, pos)
    if (fromFile < size) {
      // The rest is in the write in flight and the queue, in order from `written`.
      let at = this.written
      let filled = fromFile
      for (const chunk of [...this.inflight, ...this.queued]) {
        const chunkEnd = at + chunk.length
        const from = pos + filled
        if (chunkEnd > from) {
          const copied = chunk.copy(block, filled, from - at)
          filled += copied
          if (filled >= size) break
        }
        at = chunkEnd
      }
    }
    return block
  }

  /** No further writes start (the engine stops, or the log is destroyed). */
  close(): void {
    this.closed = true
  }

  private start(): void {
    if (this.writing || this.closed || this.failure || this.queuedBytes === 0)
      return
    this.inflight = this.queued
    this.inflightBytes = this.queuedBytes
    this.queued = []
    this.queuedBytes = 0
    this.writing = this.write(this.inflight, this.written).then(
      () => {
        this.written += this.inflightBytes
        this.settle()
        this.start()
      },
      (error: Error) => {
        this.failure = error
        // Back at the front of the queue, for the next try.
        this.queued = [...this.inflight, ...this.queued]
        this.queuedBytes += this.inflightBytes
        this.settle()
      },
    )
  }

  private settle(): void {
    this.inflight = []
    this.inflightBytes = 0
    this.writing = null
  }

  /** All of `chunks` at `pos`, however many calls it takes (a write may be short). */
  private write(chunks: Buffer[], pos: number): Promise<void> {
    return fdCache.pinned(this.path, async (fd) => {
      let pending = chunks
      let at = pos
      while (pending.length > 0) {
        const wrote = await new Promise<number>((resolve, reject) =>
          writev(fd, pending, at, (error, bytes) =>
            error ? reject(error) : resolve(bytes),
          ),
        )
        if (wrote === 0) throw new Error('the log write made no progress')
        at += wrote
        pending = skipBytes(pending, wrote)
      }
    })
  }
}

/** The buffers past their first `bytes` bytes. */
function skipBytes(chunks: Buffer[], bytes: number): Buffer[] {
  let left = bytes
  let i = 0
  while (i < chunks.length && left >= (chunks[i]?.length ?? 0))
    left -= chunks[i++]?.length ?? 0
  const rest = chunks.slice(i)
  const first = rest[0]
  if (first && left > 0) rest[0] = first.subarray(left)
  return rest
}
