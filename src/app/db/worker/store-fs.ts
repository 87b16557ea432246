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
// waits for. A first visit's sync does change everything (the whole seed is new to IndexedDB,
// about 9 MB), and its write-back, run while the first screen reads, delayed that screen by up
// to 0.3 s: the tab asks for it (flush) once that screen shows, and the delay only has to
// outlast that. What a closed tab can lose grows from "the statements of the last moment" to
// that long. A write-back stores the files of one instant in one IndexedDB transaction
// (store-write-back.ts, not IDBFS's own, which mixes two), so the store is always a state
// Postgres recovers from, and the sync fetches what is missing again.
import { IdbFs } from '@electric-sql/pglite'
import type { SeedFile } from './seed-files.ts'
import { mountPath, readStoredFiles, type StoredFile } from './store-files.ts'
import { listFiles, StoreWriteBack } from './store-write-back.ts'

const WRITE_BACK_DELAY_MS = 200
const FIRST_WRITE_BACK_DELAY_MS = 3_000

export class StoreFs extends IdbFs {
  // The next write-back, and how to start it before its time; the one in progress.
  #scheduled: { done: Promise<void>; now: () => void } | null = null
  #running: Promise<void> = Promise.resolve()
  #delay = FIRST_WRITE_BACK_DELAY_MS
  #stored: Promise<StoredFile[] | null> | null
  #seed: (() => Promise<SeedFile[] | undefined>) | null
  #writeBack: StoreWriteBack | null = null
  #released = false

  /**
   * `stored`: the files, if their reading has begun already (readStoredFiles). `seed`: what a
   * new store starts from (seed-files.ts); without it, PGlite runs initdb.
   */
  constructor(
    dataDir: string,
    stored?: Promise<StoredFile[] | null>,
    seed?: () => Promise<SeedFile[] | undefined>,
  ) {
    super(dataDir)
    this.#stored = stored ?? null
    this.#seed = seed ?? null
  }

  /** Starts reading the stored files; resolves to whether this browser holds any. */
  preload(): Promise<boolean> {
    this.#stored ??= readStoredFiles(this.dataDir!)
    return this.#stored.then((files) => (files?.length ?? 0) > 0)
  }

  override async initialSyncFs(): Promise<void> {
    void this.preload()
    const files = await this.#stored
    // From here on the files live in Postgres's memory only.
    this.#stored = null
    // A new store (no database, or nothing in it yet): IDBFS creates what it needs (and
    // leaves in memory only what IndexedDB holds), then the seed's files go in.
    const fs = this.pg!.Module.FS
    const root = mountPath(this.dataDir!)
    if (!files?.length) {
      // IDBFS's read leaves in memory exactly what IndexedDB holds: that is what is stored.
      await super.initialSyncFs()
      this.#writeBack = new StoreWriteBack(fs, root, listFiles(fs, root))
      const seed = await this.#seed?.()
      if (seed) this.#writeSeed(seed)
      return
    }
    this.#writeBack = new StoreWriteBack(
      fs,
      root,
      new Map(files.map(([path, entry]) => [path, entry.timestamp.getTime()])),
    )
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

  // As PGlite's own tarball loader writes them: default modes, the archive's times.
  #writeSeed(seed: SeedFile[]) {
    const fs = this.pg!.Module.FS
    const root = mountPath(this.dataDir!)
    const made = new Set<string>()
    const directory = (path: string) => {
      if (made.has(path)) return
      fs.mkdirTree(path)
      made.add(path)
    }
    for (const file of seed) {
      const path = `${root}/${file.path}`
      if (!file.contents) {
        directory(path)
        continue
      }
      directory(path.slice(0, path.lastIndexOf('/')))
      fs.writeFile(path, file.contents, { canOwn: true })
      fs.utime(path, file.mtimeMs, file.mtimeMs)
    }
  }

  // Every write-back is this module's (store-write-back.ts), never IDBFS's: before the files
  // are read and after closing there is nothing to write.
  override syncToFs(): Promise<void> {
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
          const run = this.#released ? Promise.resolve() : this.writeBack()
          this.#running = run.catch(() => {})
          return run
        })
      this.#scheduled = { done, now }
    }
    return this.#scheduled.done
  }

  /** One write-back, now (a method of its own for the scheduling's tests). */
  writeBack(): Promise<void> {
    return this.#writeBack?.run() ?? Promise.resolve()
  }

  override async closeFs(): Promise<void> {
    // What is in memory goes to IndexedDB before the connection closes, and nothing after.
    if (this.#scheduled) await this.flush().catch(() => {})
    await this.#running
    this.#writeBack?.close()
    this.#writeBack = null
    return super.closeFs()
  }

  /**
   * The stored files are about to be deleted (a sign-out, store-close.ts): nothing more is
   * written back, and this file system's IndexedDB connections close once the write-back in
   * progress is done, so the deletion can go ahead. Postgres is not closed: its shutdown
   * would write again (a large checkpoint, whose IndexedDB commit was seen never to end),
   * and the tabs' statements still in flight would meet a database gone from under them
   * (PGlite fails those with a TypeError). It ends with its worker (tab/store-close.ts).
   */
  async release(): Promise<void> {
    this.#released = true
    await this.#running
    this.#writeBack?.close()
    this.#writeBack = null
    // IDBFS's own, open when the store was new (initialSyncFs).
    const idbfs = this.pg?.Module.IDBFS
    const root = mountPath(this.dataDir!)
    idbfs?.dbs[root]?.close()
    if (idbfs) delete idbfs.dbs[root]
  }

  /** Writes back at once what is in memory; resolves once IndexedDB holds it. */
  flush(): Promise<void> {
    const done = this.syncToFs()
    this.#scheduled?.now()
    return done
  }
}
