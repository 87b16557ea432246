// The stored files of the local store, read straight from IDBFS's IndexedDB database (see
// store-fs.ts). Apart from PGlite, so the worker can begin reading before PGlite's code loads.

/** The store's data directory: IndexedDB database "/pglite/sluice". */
export const LOCAL_DATABASE = 'sluice'

// IDBFS's own layout (Emscripten's library_idbfs.js): one object store of entries by path.
const IDBFS_VERSION = 21
export const IDBFS_STORE = 'FILE_DATA'
// PGlite mounts the IndexedDB file system at /pglite/<dataDir>; IDBFS names the database so.
const MOUNT_ROOT = '/pglite'

export type StoredFile = [path: string, entry: StoredEntry]
type StoredEntry = {
  timestamp: Date
  mode: number
  contents?: Uint8Array
  link?: string
}

/** Whether this browser holds the store's IndexedDB database (a hint: it may change). */
export async function storeExists(dataDir: string): Promise<boolean> {
  const name = mountPath(dataDir)
  try {
    return (await indexedDB.databases()).some((db) => db.name === name)
  } catch {
    return true
  }
}

/** Where PGlite mounts the store's files (IDBFS's paths; Postgres's data directory links here). */
export const mountPath = (dataDir: string): string => `${MOUNT_ROOT}/${dataDir}`

/** Every stored entry with its path, in path order; null when the database does not exist. */
export async function readStoredFiles(
  dataDir: string,
): Promise<StoredFile[] | null> {
  const db = await new Promise<IDBDatabase | null>((resolve, reject) => {
    const request = indexedDB.open(mountPath(dataDir), IDBFS_VERSION)
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

/**
 * A connection to the store's IndexedDB database (named by its mount path) for writing; made
 * as IDBFS makes it when it is not there yet.
 */
export function openStoreDatabase(name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, IDBFS_VERSION)
    request.onupgradeneeded = () => {
      const store = request.result.objectStoreNames.contains(IDBFS_STORE)
        ? request.transaction!.objectStore(IDBFS_STORE)
        : request.result.createObjectStore(IDBFS_STORE)
      if (!store.indexNames.contains('timestamp'))
        store.createIndex('timestamp', 'timestamp', { unique: false })
    }
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error)
  })
}

function result<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error)
  })
}

/**
 * Deletes the store's IndexedDB database; resolves once it is gone. A connection still open
 * (the write-back's, closing) holds the deletion back until it closes, and no open asked after
 * it can see the old files.
 */
export function deleteStoreDatabase(dataDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(mountPath(dataDir))
    request.onsuccess = () => resolve()
    request.onerror = () => reject(request.error ?? new Error('not deleted'))
  })
}
