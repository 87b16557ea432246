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

/**
 * Appends are copied into blocks of the writer's own, which grow from the first size to the
 * last. An append kept as a Buffer of its own lived until the next checkpoint (up to 30 s), so
 * each was promoted: at 10,000 busy shapes that was about 11,000 Buffers a second for the
 * young collections to copy and the old ones to mark (bench:engine --shapes 10000, heap
 * snapshot: 63,000 of them at once). An append larger than the last size is kept as it is.
 */
const FIRST_BLOCK_BYTES = 512
const LAST_BLOCK_BYTES = 64 * 1024

export class LogWriter {
  /**
   * What is not both written and journaled (nor past the journal's limit), in order: blocks[i]
   * holds the bytes from file position starts[i]. Only the last block has room left.
   */
  private blocks: Buffer[] = []
  private starts: number[] = []
  private appended: number
  /** The end of the write in flight (`written` when none is). */
  private writingTo: number
  private writing: Promise<void> | null = null
  /** The last write's error, until a write succeeds: appends are refused meanwhile. */
  private failure: Error | null = null
  private closed = false
  /** Appended up to here when last taken for the journal. */
  private journaledEnd: number
  /** What the journal lacks is no longer in memory, or too much for it: the next take syncs. */
  private mustSync = false

  /** `written`: the file's length, all of it the log's. */
  constructor(
    private readonly path: string,
    private written: number,
  ) {
    this.appended = written
    this.writingTo = written
    this.journaledEnd = written
  }

  /** Bytes appended so far, on file or not. */
  get end(): number {
    return this.appended
  }

  /**
   * Queues the bytes at the end; `copy`: always copied, so the caller may reuse the buffer (a
   * large append is otherwise kept as it is). Throws while the last write failed (a full disk): the caller's
   * transaction is then not applied, and replication retries it, as a failed synchronous write
   * did before.
   */
  append(buffer: Buffer, copy = false): void {
    if (this.failure) throw this.failure
    if (buffer.length > LAST_BLOCK_BYTES && !copy) this.keep(buffer)
    else
      for (let copied = 0; copied < buffer.length;) {
        const block = this.room()
        const n = buffer.copy(block, this.lastUsed(), copied)
        copied += n
        this.appended += n
      }
    if (this.appended - this.journaledEnd > JOURNAL_LIMIT_BYTES)
      this.mustSync = true
    if (this.appended - this.writingTo >= WRITE_AFTER_BYTES) this.start()
  }

  /**
   * The appends since the last take, for the journal; or `sync` when they outgrew what it
   * takes, and the caller must syncTaken() instead; or null when there are none.
   */
  takeJournal(): JournalTake {
    if (this.appended === this.journaledEnd) return null
    if (this.mustSync) return 'sync'
    const take = {
      pos: this.journaledEnd,
      chunks: this.slices(this.journaledEnd, this.appended),
    }
    this.journaledEnd = this.appended
    this.release()
    return take
  }

  /**
   * The journal could not hold a take from `pos`: the next take says `sync`, for everything
   * from there.
   */
  untake(pos: number): void {
    if (pos >= this.journaledEnd) return
    this.journaledEnd = pos
    this.mustSync = true
  }

  /** After a `sync` take: makes everything appended durable here, so the journal need not. */
  async syncTaken(): Promise<void> {
    const target = this.appended
    await this.sync()
    if (this.journaledEnd < target) this.journaledEnd = target
    // What was appended meanwhile goes to the journal if it is all still here.
    this.mustSync =
      this.journaledEnd < this.memoryFrom() ||
      this.appended - this.journaledEnd > JOURNAL_LIMIT_BYTES
    this.release()
  }

  /** Writes everything appended so far (not what is appended meanwhile), then makes it durable. */
  async sync(): Promise<void> {
    const target = this.appended
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
    while (this.appended - this.written > bytes && this.writing)
      await this.writing
  }

  /** `size` bytes at `pos` (within end), from the file and then from memory. */
  readAt(pos: number, size: number): Buffer {
    const block = Buffer.alloc(size)
    const fromFile = Math.max(0, Math.min(size, this.written - pos))
    if (fromFile > 0) readSync(fdCache.use(this.path), block, 0, fromFile, pos)
    let filled = fromFile
    for (const slice of this.slices(pos + fromFile, pos + size))
      filled += slice.copy(block, filled)
    return block
  }

  /** No further writes start (the engine stops, or the log is destroyed). */
  close(): void {
    this.closed = true
  }

  /** The bytes in use in the last block (the rest is its room); 0 without blocks. */
  private lastUsed(): number {
    const start = this.starts[this.starts.length - 1]
    return start === undefined ? 0 : this.appended - start
  }

  /** The last block, or a new one when it is full. */
  private room(): Buffer {
    const last = this.blocks[this.blocks.length - 1]
    if (last && this.lastUsed() < last.length) return last
    const size = last
      ? Math.min(LAST_BLOCK_BYTES, Math.max(FIRST_BLOCK_BYTES, last.length * 2))
      : FIRST_BLOCK_BYTES
    const block = Buffer.allocUnsafeSlow(size)
    this.blocks.push(block)
    this.starts.push(this.appended)
    return block
  }

  /** A large append, kept whole as a full block of its own. */
  private keep(buffer: Buffer): void {
    const last = this.blocks[this.blocks.length - 1]
    // The last block's unused room is cut off: only the last block may have any.
    if (last && this.lastUsed() < last.length)
      this.blocks[this.blocks.length - 1] = last.subarray(0, this.lastUsed())
    this.blocks.push(buffer)
    this.starts.push(this.appended)
    this.appended += buffer.length
  }

  /** Where the bytes in memory start. */
  private memoryFrom(): number {
    return this.starts[0] ?? this.appended
  }

  /** Views of the bytes from `from` to `to` (both within memory). */
  private slices(from: number, to: number): Buffer[] {
    const out: Buffer[] = []
    for (let i = 0; i < this.blocks.length && from < to; i++) {
      const start = this.starts[i] as number
      const block = this.blocks[i] as Buffer
      const blockEnd = Math.min(start + block.length, this.appended)
      if (blockEnd <= from) continue
      const end = Math.min(blockEnd, to)
      out.push(block.subarray(from - start, end - start))
      from = end
    }
    return out
  }

  /** Drops the blocks the file and the journal both have (the last block keeps its room). */
  private release(): void {
    const needed = this.mustSync
      ? this.written
      : Math.min(this.written, this.journaledEnd)
    while (this.blocks.length > 1 && (this.starts[1] as number) <= needed) {
      this.blocks.shift()
      this.starts.shift()
    }
    const only = this.blocks[0]
    if (
      only &&
      this.blocks.length === 1 &&
      this.appended <= needed &&
      this.lastUsed() >= only.length
    ) {
      this.blocks = []
      this.starts = []
    }
  }

  private start(): void {
    if (
      this.writing ||
      this.closed ||
      this.failure ||
      this.writingTo === this.appended
    )
      return
    const target = this.appended
    const chunks = this.slices(this.written, target)
    this.writingTo = target
    this.writing = this.write(chunks, this.written).then(
      () => {
        this.written = target
        this.writing = null
        this.release()
        this.start()
      },
      (error: Error) => {
        // Still in memory, for the next try.
        this.failure = error
        this.writingTo = this.written
        this.writing = null
      },
    )
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
