// A transaction too large to hold in memory, on disk: once an open transaction passes the spill
// limit (changes or bytes), its changes go to a file in the engine's data dir, in order, and at
// COMMIT the engine reads them back in chunks (apply-transaction.ts). Records are a 4-byte
// length and JSON; a relation is written once per file, before its first change, and changes
// name it by number. Writes are batched and go off the event loop; the caller watches
// `backlog` and stops reading the socket while too much waits (stream.ts).
import { open, rm, type FileHandle } from 'node:fs/promises'
import { PRIVATE_FILE } from '../storage/private-files.ts'
import { writeAll } from '../storage/write-all.ts'
import type { Change, Relation, Row, SpilledChanges } from './types.ts'

export type SpillLimit = {
  /** Changes of one transaction held in memory before it spills. */
  changes: number
  /** Bytes of replication data of one transaction held in memory before it spills. */
  bytes: number
}

export const DEFAULT_SPILL_LIMIT: SpillLimit = {
  changes: 10_000,
  bytes: 8 * 1024 * 1024,
}

/** Bytes gathered before a write starts. */
const WRITE_AFTER_BYTES = 1024 * 1024
/** Bytes read from the file at a time. */
const READ_BLOCK = 1024 * 1024

type Encoded =
  | ['R', Relation]
  | ['i', number, Row]
  | ['u', number, Row | null, Row]
  | ['d', number, Row]
  | ['t', number[]]

export class SpillWriter {
  private relations = new Map<Relation, number>()
  private gathered: Buffer[] = []
  private gatheredBytes = 0
  private inflightBytes = 0
  private writing: Promise<void> | null = null
  private failure: Error | null = null
  private readonly file: Promise<FileHandle>
  private drainWaiters: Array<() => void> = []
  count = 0

  constructor(readonly path: string) {
    this.file = open(path, 'w', PRIVATE_FILE)
    // Seen by the next write or finish(); never an unhandled rejection meanwhile.
    this.file.catch(() => {})
  }

  /** Bytes encoded and not yet on file: the memory this spill holds. */
  get backlog(): number {
    return this.gatheredBytes + this.inflightBytes
  }

  add(change: Change): void {
    if (this.failure) throw this.failure
    this.record(this.encode(change))
    this.count++
    if (this.gatheredBytes >= WRITE_AFTER_BYTES) this.start()
  }

  /** Resolves once the backlog is below `bytes` (at once if it is). */
  async drained(bytes: number): Promise<void> {
    while (this.backlog >= bytes) {
      if (this.failure) throw this.failure
      this.start()
      await new Promise<void>((resolve) => this.drainWaiters.push(resolve))
    }
  }

  /** Writes what is left and closes the file: the changes, ready to read. */
  async finish(): Promise<SpilledChanges> {
    this.start()
    while (this.writing) await this.writing
    if (this.failure) throw this.failure
    this.start()
    while (this.writing) await this.writing
    if (this.failure) throw this.failure
    await (await this.file).close()
    const { path, count } = this
    return {
      path,
      count,
      chunks: (size) => readSpill(path, size),
      remove: () => rm(path, { force: true }),
    }
  }

  /**
   * The transaction committed: its changes, readable once the rest is written (started now).
   * Nothing may be added after this.
   */
  commit(): SpilledChanges {
    const finished = this.finish()
    finished.catch(() => {})
    const { path, count } = this
    return {
      path,
      count,
      async *chunks(size) {
        yield* (await finished).chunks(size)
      },
      remove: async () => {
        await finished.catch(() => {})
        await rm(path, { force: true })
      },
    }
  }

  /** Closes and removes the file (a transaction never committed, or a session ending). */
  async discard(): Promise<void> {
    this.failure ??= new Error('the spill was discarded')
    await this.writing?.catch(() => {})
    await this.file.then((file) => file.close()).catch(() => {})
    await rm(this.path, { force: true })
  }

  private encode(change: Change): Encoded {
    switch (change.kind) {
      case 'insert':
        return ['i', this.relationId(change.relation), change.newRow]
      case 'update':
        return [
          'u',
          this.relationId(change.relation),
          change.oldRow,
          change.newRow,
        ]
      case 'delete':
        return ['d', this.relationId(change.relation), change.oldRow]
      case 'truncate':
        return ['t', change.relations.map((r) => this.relationId(r))]
    }
  }

  private relationId(relation: Relation): number {
    let id = this.relations.get(relation)
    if (id === undefined) {
      id = this.relations.size
      this.relations.set(relation, id)
      this.record(['R', relation])
    }
    return id
  }

  private record(encoded: Encoded): void {
    const json = Buffer.from(JSON.stringify(encoded))
    const length = Buffer.allocUnsafe(4)
    length.writeUInt32LE(json.length)
    this.gathered.push(length, json)
    this.gatheredBytes += 4 + json.length
  }

  private start(): void {
    if (this.writing || this.failure || this.gatheredBytes === 0) return
    const buffer = Buffer.concat(this.gathered)
    this.gathered = []
    this.gatheredBytes = 0
    this.inflightBytes = buffer.length
    this.writing = this.write(buffer).then(
      () => {
        this.inflightBytes = 0
        this.writing = null
        if (this.gatheredBytes >= WRITE_AFTER_BYTES) this.start()
        this.wakeDrainers()
      },
      (error: Error) => {
        this.failure = error
        this.inflightBytes = 0
        this.writing = null
        this.wakeDrainers()
      },
    )
  }

  private wakeDrainers(): void {
    const waiters = this.drainWaiters
    this.drainWaiters = []
    for (const wake of waiters) wake()
  }

  private async write(buffer: Buffer): Promise<void> {
    await writeAll(await this.file, buffer, null, 'the spill')
  }
}

/** The changes of a spill file in order, `size` at a time, read block by block. */
export async function* readSpill(
  path: string,
  size: number,
): AsyncGenerator<Change[]> {
  const file = await open(path, 'r')
  try {
    const relations: Relation[] = []
    let pending = Buffer.alloc(0)
    let chunk: Change[] = []
    const block = Buffer.alloc(READ_BLOCK)
    for (;;) {
      const { bytesRead } = await file.read(block, 0, READ_BLOCK, null)
      if (bytesRead === 0) break
      pending = Buffer.concat([pending, block.subarray(0, bytesRead)])
      let at = 0
      while (pending.length - at >= 4) {
        const length = pending.readUInt32LE(at)
        if (pending.length - at - 4 < length) break
        const encoded = JSON.parse(
          pending.toString('utf8', at + 4, at + 4 + length),
        ) as Encoded
        at += 4 + length
        if (encoded[0] === 'R') {
          relations.push(encoded[1])
          continue
        }
        chunk.push(decode(encoded, relations))
        if (chunk.length >= size) {
          yield chunk
          chunk = []
        }
      }
      pending = pending.subarray(at)
    }
    if (pending.length > 0)
      throw new Error(`the spill file ${path} ends inside a record`)
    if (chunk.length > 0) yield chunk
  } finally {
    await file.close()
  }
}

function decode(
  encoded: Exclude<Encoded, ['R', Relation]>,
  relations: Relation[],
): Change {
  const relation = (id: number): Relation => {
    const found = relations[id]
    if (!found) throw new Error(`spilled change of unknown relation ${id}`)
    return found
  }
  switch (encoded[0]) {
    case 'i':
      return {
        kind: 'insert',
        relation: relation(encoded[1]),
        newRow: encoded[2],
      }
    case 'u':
      return {
        kind: 'update',
        relation: relation(encoded[1]),
        oldRow: encoded[2],
        newRow: encoded[3],
      }
    case 'd':
      return {
        kind: 'delete',
        relation: relation(encoded[1]),
        oldRow: encoded[2],
      }
    case 't':
      return { kind: 'truncate', relations: encoded[1].map(relation) }
  }
}
