// Writes the store's files back to IndexedDB as they are at one instant (store-fs.ts).
//
// Why not IDBFS's own write-back (Emscripten's FS.syncfs): it lists the files in memory, then
// walks IndexedDB's entries (an event per entry, hundreds of them) and only then writes the
// files that had changed at its first look. With relaxed durability, statements run during
// that walk: the files they change after the first look are not written, while the files it
// does write carry their newest contents. The stored files then mix two moments (a WAL older
// than the data pages written after it), and the Postgres that a tab taking over opens from
// them lost a committed row now and then, or showed one twice (fault F10).
//
// Here the stored entries' times are kept in memory, so one write-back (listing, comparing,
// every put and delete) runs in a single task with no statement between: the stored files
// are always the files of one instant, which Postgres recovers from as from a crash.
// IndexedDB copies each value as it is put, and commits the transaction whole or not at all.
import { IDBFS_STORE, openStoreDatabase } from './store-files.ts'

/** The Emscripten file system calls used here (PGlite's Module.FS). */
export type MemFs = {
  readdir(path: string): string[]
  lstat(path: string): { mode: number; mtime: Date }
  isDir(mode: number): boolean
  isFile(mode: number): boolean
  isLink(mode: number): boolean
  readlink(path: string): string
  lookupPath(path: string): {
    node: { contents?: unknown; usedBytes?: number }
  }
  readFile(path: string): Uint8Array
}

/** Path to the time of the file's last change, as IDBFS keys and stamps its entries. */
export type FileTimes = Map<string, number>

/** Every entry under the mount point (not itself) and its time, as IDBFS lists them. */
export function listFiles(fs: MemFs, root: string): FileTimes {
  const times: FileTimes = new Map()
  const pending = [root]
  while (pending.length) {
    const dir = pending.pop()!
    for (const name of fs.readdir(dir)) {
      if (name === '.' || name === '..') continue
      const path = `${dir}/${name}`
      const stat = fs.lstat(path)
      if (fs.isDir(stat.mode)) pending.push(path)
      times.set(path, stat.mtime.getTime())
    }
  }
  return times
}

export class StoreWriteBack {
  #fs: MemFs
  #root: string
  /** What IndexedDB holds, by the times of the files when they were stored. */
  #stored: FileTimes
  #db: Promise<IDBDatabase> | null = null

  constructor(fs: MemFs, root: string, stored: FileTimes) {
    this.#fs = fs
    this.#root = root
    this.#stored = stored
  }

  /** Stores what changed since the last write-back; resolves once IndexedDB has committed it. */
  async run(): Promise<void> {
    this.#db ??= openStoreDatabase(this.#root)
    const db = await this.#db
    // From here to the last put: one task, so the files are those of one instant.
    const now = Date.now()
    const files = listFiles(this.#fs, this.#root)
    const changed = [...files].filter(([p, t]) => this.#stored.get(p) !== t)
    const removed = [...this.#stored.keys()].filter((p) => !files.has(p))
    if (!changed.length && !removed.length) return
    const transaction = db.transaction(IDBFS_STORE, 'readwrite')
    const store = transaction.objectStore(IDBFS_STORE)
    const next = new Map(this.#stored)
    // Directories before what they hold, as IDBFS writes them.
    for (const [path, time] of changed.sort(([a], [b]) => (a < b ? -1 : 1))) {
      store.put(this.#entry(path), path)
      // A file changed within this millisecond can change again within it, keeping its time:
      // stored as unknown, it is written again by the next write-back.
      next.set(path, time >= now ? Number.NaN : time)
    }
    for (const path of removed.sort().reverse()) {
      store.delete(path)
      next.delete(path)
    }
    await committed(transaction)
    this.#stored = next
  }

  /** Closes this write-back's connection once its transactions end. */
  close(): void {
    void this.#db?.then((db) => db.close()).catch(() => {})
    this.#db = null
  }

  // IDBFS's entry: its time, mode, and the file's bytes or the link's target.
  #entry(path: string) {
    const fs = this.#fs
    const stat = fs.lstat(path)
    const entry = { timestamp: stat.mtime, mode: stat.mode }
    if (fs.isDir(stat.mode)) return entry
    if (fs.isLink(stat.mode)) return { ...entry, link: fs.readlink(path) }
    if (fs.isFile(stat.mode))
      return { ...entry, contents: this.#contents(path) }
    throw new Error(`${path}: a file of unknown type`)
  }

  // The file's bytes without a copy where its buffer holds nothing else (IndexedDB clones the
  // whole buffer behind a view, so a grown buffer's spare room is cut off first).
  #contents(path: string): Uint8Array {
    const { node } = this.#fs.lookupPath(path)
    const used = node.usedBytes ?? 0
    const bytes = node.contents
    if (!(bytes instanceof Uint8Array)) return this.#fs.readFile(path)
    return bytes.byteOffset === 0 && bytes.buffer.byteLength === used
      ? bytes
      : bytes.slice(0, used)
  }
}

function committed(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve()
    transaction.onerror = transaction.onabort = () =>
      reject(transaction.error ?? new Error('the write-back was aborted'))
  })
}
