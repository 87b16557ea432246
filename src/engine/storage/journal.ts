// A database's journal: group commit for its shape logs. Each flush writes what every busy log
// gained since the last one into one file, as frames, and fdatasyncs that file once. Before it,
// each busy log was fdatasynced on its own: at 10,000 busy shapes a flush took 3-8 s on the
// bench's disk (bench:engine --shapes 10000), so the slot was confirmed that rarely and its lag
// grew. The logs' own files are still written, and are fdatasynced at a checkpoint (every 30 s,
// or once a segment passes 32 MiB); then the segment that held their frames is deleted.
//
// After a crash, replay() writes every frame back into its log before any log is opened. A
// frame holds the very bytes at the very position the log has or should have, so writing it
// again is harmless; replay makes them durable and empties the journal before recovery may cut
// a torn end and later appends reuse those positions.
//
// A frame: u32 length of what follows the crc, u32 crc32 of it, u16 path length, the log's
// path under the shapes dir, u48 position, the bytes. A torn last frame fails its crc and ends
// its segment's replay.
import {
  mkdir,
  open,
  readFile,
  readdir,
  rm,
  type FileHandle,
} from 'node:fs/promises'
import { join, relative, resolve, sep } from 'node:path'
import { crc32 } from 'node:zlib'
import { eachLimited } from '../limited.ts'
import { PRIVATE_DIR, PRIVATE_FILE } from './private-files.ts'
import { TimeSlice } from '../time-slice.ts'
import { writeAll } from './write-all.ts'

/** When a segment is retired and its logs synced: their memory and its size stay bounded. */
export type CheckpointLimits = { everyMs: number; afterBytes: number }
const CHECKPOINT: CheckpointLimits = {
  everyMs: 30_000,
  afterBytes: 32 * 1024 * 1024,
}
/** Log files fdatasynced at once in a checkpoint or replay (the threadpool has four threads). */
const SYNCS_AT_ONCE = 8
const HEADER_BYTES = 8 + 2 + 6
/** How long encoding a commit's frames holds the event loop at a time. */
const ENCODE_SLICE_MS = 2

/** A shape log as the journal sees it (shape-log.ts ShapeLog). */
type JournalLog = {
  readonly path: string
  readonly isClosed: boolean
  sync(): Promise<void>
}

/** `chunks`, in order, belong in `log` at `pos`. */
export type Frame = { log: JournalLog; pos: number; chunks: Buffer[] }

type Segment = {
  path: string
  file: FileHandle
  size: number
  openedAt: number
  /** The logs with frames here: synced, they no longer need it. */
  logs: Set<JournalLog>
}

type Retired = { path: string; logs: Set<JournalLog> }

export class Journal {
  private segment: Segment | null = null
  private opening: Promise<Segment> | null = null
  private retired: Retired[] = []
  private nextNumber = 0
  private checkpointing: Promise<void> | null = null
  private closed = false
  /** Each log's path under the shapes dir, encoded once (path.relative showed in profiles). */
  private names = new WeakMap<JournalLog, Buffer>()

  constructor(
    private readonly dir: string,
    private readonly shapesDir: string,
    private readonly checkpointAt: CheckpointLimits = CHECKPOINT,
  ) {}

  /**
   * Makes the frames durable: one write, one fdatasync. Throws if they are not (a full disk);
   * the caller then makes their logs durable on their own (durability.ts). What a failed write
   * left in the segment is written over by the next commit.
   */
  async commit(frames: Frame[]): Promise<void> {
    if (this.closed) throw new Error('the journal is closed')
    if (frames.length === 0) return
    const segment = await this.current()
    const bytes = await encode(frames, (log) => this.nameOf(log))
    await writeAll(segment.file, bytes, segment.size, 'a journal')
    await segment.file.datasync()
    segment.size += bytes.length
    for (const frame of frames) segment.logs.add(frame.log)
    if (
      segment.size >= this.checkpointAt.afterBytes ||
      performance.now() - segment.openedAt >= this.checkpointAt.everyMs
    )
      this.retire(segment)
    if (this.retired.length > 0) void this.checkpoint()
  }

  /**
   * Before any log of the database opens: writes every frame left by the last run back into
   * its log, makes those logs durable, and deletes the segments. Returns the frames written.
   */
  async replay(): Promise<number> {
    await mkdir(this.dir, { recursive: true, mode: PRIVATE_DIR })
    const names = (await readdir(this.dir))
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(a) - Number(b))
    this.nextNumber = Number(names.at(-1) ?? -1) + 1
    const byLog = new Map<string, { pos: number; bytes: Buffer }[]>()
    let count = 0
    for (const name of names) {
      const data = await readFile(join(this.dir, name))
      for (const frame of decode(data)) {
        const path = resolve(this.shapesDir, frame.path)
        // Our own file, but a path is never followed out of the shapes dir.
        if (!path.startsWith(this.shapesDir + sep)) continue
        const frames = byLog.get(path) ?? []
        frames.push(frame)
        byLog.set(path, frames)
        count++
      }
    }
    await eachLimited([...byLog], SYNCS_AT_ONCE, async ([path, frames]) => {
      // A rotated shape's log is gone with its directory: nothing to restore.
      const file = await open(path, 'r+').catch(() => null)
      if (!file) return
      try {
        for (const frame of frames)
          await writeAll(file, frame.bytes, frame.pos, 'a journal')
        await file.datasync()
      } finally {
        await file.close()
      }
    })
    for (const name of names) await rm(join(this.dir, name))
    await syncDir(this.dir)
    return count
  }

  /** No more commits; a checkpoint under way deletes nothing more (its logs are closing). */
  async close(): Promise<void> {
    this.closed = true
    const segment = this.segment ?? (await this.opening?.catch(() => null))
    this.segment = null
    await segment?.file.close().catch(() => {})
  }

  private nameOf(log: JournalLog): Buffer {
    let name = this.names.get(log)
    if (!name) {
      name = Buffer.from(relative(this.shapesDir, log.path))
      this.names.set(log, name)
    }
    return name
  }

  private current(): Promise<Segment> {
    if (this.segment) return Promise.resolve(this.segment)
    this.opening ??= this.openSegment().finally(() => (this.opening = null))
    return this.opening
  }

  private async openSegment(): Promise<Segment> {
    await mkdir(this.dir, { recursive: true, mode: PRIVATE_DIR })
    const path = join(this.dir, String(this.nextNumber++).padStart(12, '0'))
    const file = await open(path, 'w', PRIVATE_FILE)
    // The new file's name must be durable too, or its fdatasynced frames could vanish with it.
    await syncDir(this.dir)
    this.segment = {
      path,
      file,
      size: 0,
      openedAt: performance.now(),
      logs: new Set(),
    }
    return this.segment
  }

  /** The next commit opens a new segment; this one waits for its logs to be synced. */
  private retire(segment: Segment): void {
    this.segment = null
    this.retired.push({ path: segment.path, logs: segment.logs })
    void segment.file.close().catch(() => {})
  }

  /** Syncs the logs of retired segments and deletes those segments (a test waits on it). */
  checkpoint(): Promise<void> {
    this.checkpointing ??= this.syncRetired()
      // A log that fails to sync keeps its segment; the next commit tries again.
      .catch(() => {})
      .finally(() => (this.checkpointing = null))
    return this.checkpointing
  }

  private async syncRetired(): Promise<void> {
    while (this.retired[0] && !this.closed) {
      const oldest = this.retired[0]
      // A closed log was rotated away (its directory is gone) or is closing with the engine,
      // in which case the segment is kept: `closed` below.
      const logs = [...oldest.logs].filter((log) => !log.isClosed)
      await eachLimited(logs, SYNCS_AT_ONCE, (log) => log.sync())
      if (this.closed) return
      await rm(oldest.path, { force: true })
      this.retired.shift()
    }
  }
}

/**
 * The frames as the segment holds them, made in short slices: at 10,000 busy shapes a flush
 * has some 7,000 frames, and encoding them at once held the event loop for about 20 ms every
 * second (bench:engine --shapes 10000 --cpu-profile), which the answers waiting behind it felt.
 */
async function encode(
  frames: Frame[],
  nameOf: (log: JournalLog) => Buffer,
): Promise<Buffer> {
  const parts: Buffer[] = []
  const slice = new TimeSlice(ENCODE_SLICE_MS)
  for (const frame of frames) {
    if (slice.tick()) await slice.pause()
    const path = nameOf(frame.log)
    let payload = 0
    for (const chunk of frame.chunks) payload += chunk.length
    const header = Buffer.allocUnsafe(HEADER_BYTES + path.length)
    header.writeUInt32LE(2 + path.length + 6 + payload, 0)
    header.writeUInt16LE(path.length, 8)
    path.copy(header, 10)
    header.writeUIntLE(frame.pos, 10 + path.length, 6)
    let crc = crc32(header.subarray(8))
    for (const chunk of frame.chunks) crc = crc32(chunk, crc)
    header.writeUInt32LE(crc, 4)
    parts.push(header, ...frame.chunks)
  }
  return Buffer.concat(parts)
}

/** The whole frames of a segment, up to the first torn or damaged one. */
function* decode(
  data: Buffer,
): Generator<{ path: string; pos: number; bytes: Buffer }> {
  let at = 0
  while (at + 8 <= data.length) {
    const length = data.readUInt32LE(at)
    const end = at + 8 + length
    if (length < 8 || end > data.length) return
    const body = data.subarray(at + 8, end)
    if (crc32(body) !== data.readUInt32LE(at + 4)) return
    const pathLength = body.readUInt16LE(0)
    if (2 + pathLength + 6 > body.length) return
    yield {
      path: body.toString('utf8', 2, 2 + pathLength),
      pos: body.readUIntLE(2 + pathLength, 6),
      bytes: body.subarray(2 + pathLength + 6),
    }
    at = end
  }
}

async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}
