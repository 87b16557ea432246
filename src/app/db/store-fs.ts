// The store's file system: PGlite's IndexedDB one, loading faster and writing back less often.
//
// Loading: PGlite's IndexedDB file system (Emscripten's IDBFS) reads the stored files one
// request each, about 400 of them on every visit, once Postgres's code has loaded. Here they
// are read with two requests (every key, every entry), started as early as the worker likes
// (preload), and written into memory exactly as IDBFS would, same modes and times, so IDBFS's
// later comparisons find nothing changed.
//
// Writing back: PGlite writes Postgres's files back to IndexedDB after every statement, reads
// included; each write-back compares every file in memory with every entry stored, on the
// worker thread that also answers queries. Statements arriving within WRITE_BACK_DELAY_MS
// share one write-back, and the first waits longer: Postgres's start-up, the migrations check
// and the first screen's reads change nothing that needs keeping, and they are what a visit
// waits for. What a closed tab can lose grows from "the statements of the last moment" to that
// long; a write-back is one IndexedDB transaction, so the store is always a consistent earlier
// state, and the sync fetches what is missing again.
import { IdbFs } from '@electric-sql/pglite'

const WRITE_BACK_DELAY_MS = 200
const FIRST_WRITE_BACK_DELAY_MS = 1_000

// IDBFS's own layout (Emscripten's library_idbfs.js): one object store of entries by path.
const IDBFS_VERSION = 21
const IDBFS_STORE = 'FILE_DATA'
// PGlite mounts the IndexedDB file system at /pglite/<dataDir>; IDBFS names the database so.
const MOUNT_ROOT = '/pglite'

type StoredFile = [path: string, entry: StoredEntry]
type StoredEntry = {
  timestamp: Date
  mode: number
  contents?: Uint8Array
  link?: string
}

export class StoreFs extends IdbFs {
  // The next write-back, and how to start it before its time; the one in progress.
  #scheduled: { done: Promise<void>; now: () => void } | null = null
  #running: Promise<void> = Promise.resolve()
  #delay = FIRST_WRITE_BACK_DELAY_MS
  #stored: Promise<StoredFile[] | null> | null = null

  /** Starts reading the stored files; resolves to whether this browser holds any. */
  preload(): Promise<boolean> {
    this.#stored ??= readStoredFiles(`${MOUNT_ROOT}/${this.dataDir}`)
    return this.#stored.then((files) => (files?.length ?? 0) > 0)
  }

  override async initialSyncFs(): Promise<void> {
    void this.preload()
    const files = await this.#stored
    // From here on the files live in Postgres's memory only.
    this.#stored = null
    // A new store (no database, or nothing in it yet): IDBFS creates what it needs.
    if (!files?.length) return super.initialSyncFs()
    const fs = this.pg!.Module.FS
    // IndexedDB gives string keys in order, so every directory comes before what it holds.
    for (const [path, entry] of files) {
      if (fs.isDir(entry.mode)) fs.mkdirTree(path, entry.mode)
      else if (fs.isLink(entry.mode)) fs.symlink(entry.link!, path)
      else if (fs.isFile(entry.mode))
        fs.writeFile(path, entry.contents!, { canOwn: true })
      else throw new Error(`${path}: a stored entry of unknown type`)
      fs.chmod(path, entry.mode)
      const time = entry.timestamp.getTime()
      fs.utime(path, time, time)
    }
  }

  override syncToFs(relaxedDurability?: boolean): Promise<void> {
    if (!this.#scheduled) {
      let now: () => void = () => {}
      const due = new Promise<void>((resolve) => {
        now = resolve
        setTimeout(resolve, this.#delay)
      })
      const done = due
        .then(() => this.#running)
        .then(() => {
          this.#scheduled = null
          this.#delay = WRITE_BACK_DELAY_MS
          const run = super.syncToFs(relaxedDurability)
          this.#running = run.catch(() => {})
          return run
        })
      this.#scheduled = { done, now }
    }
    return this.#scheduled.done
  }

  /** Writes back at once what is in memory; resolves once IndexedDB holds it. */
  flush(): Promise<void> {
    const done = this.syncToFs(true)
    this.#scheduled?.now()
    return done
  }
}

/** Every stored entry with its path, in path order; null when the database does not exist. */
async function readStoredFiles(name: string): Promise<StoredFile[] | null> {
  const db = await new Promise<IDBDatabase | null>((resolve, reject) => {
    const request = indexedDB.open(name, IDBFS_VERSION)
    // Not there (or an older layout): leave creating it to IDBFS.
    request.onupgradeneeded = () => request.transaction?.abort()
    request.onsuccess = () => resolve(request.result)
    request.onerror = () =>
      request.error?.name === 'AbortError'
        ? resolve(null)
        : reject(request.error)
  })
  if (!db) return null
  try {
    const store = db
      .transaction(IDBFS_STORE, 'readonly')
      .objectStore(IDBFS_STORE)
    const [keys, values] = await Promise.all([
      result(store.getAllKeys()),
      result(store.getAll()),
    ])
    return keys.map((key, i) => [String(key), values[i] as StoredEntry])
  } finally {
    db.close()
  }
}

function result<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error)
  })
}
