// Open file descriptors for shape logs, least recently used closed first: ten thousand idle
// shapes must not hold ten thousand descriptors. fsync flushes a file's pages whichever
// descriptor wrote them, so closing an idle one loses nothing.
import { closeSync, constants, openSync, readFileSync } from 'node:fs'
import { PRIVATE_FILE } from './private-files.ts'

/**
 * Descriptors kept open: a quarter of the process's limit, at most 4,096. A busy engine
 * appends to every live shape's log each second or so; below its count of busy shapes, each
 * append would close one file and open another (1,000 shapes against 512 did).
 */
const MAX_OPEN = Math.max(64, Math.min(4_096, Math.floor(fileLimit() / 4)))

function fileLimit(): number {
  try {
    const limits = readFileSync('/proc/self/limits', 'utf8')
    const soft = /^Max open files\s+(\d+)/m.exec(limits)?.[1]
    return soft ? Number(soft) : 1_024
  } catch {
    return 1_024
  }
}

/** `closing`: closed while pinned; the descriptor closes when the last pin goes. */
type Entry = { fd: number; pins: number; closing?: boolean }

class FdCache {
  private entries = new Map<string, Entry>()

  /** A descriptor for the file (created if missing); valid until the next call, unless pinned. */
  use(path: string): number {
    const found = this.entries.get(path)
    if (found) {
      // Re-insert: Map order is the recency order.
      this.entries.delete(path)
      this.entries.set(path, found)
      return found.fd
    }
    // Read-write, created if missing, never truncated: one call where exists-then-open took two.
    const fd = openSync(
      path,
      constants.O_RDWR | constants.O_CREAT,
      PRIVATE_FILE,
    )
    this.entries.set(path, { fd, pins: 0 })
    this.evict()
    return fd
  }

  /** Runs an async operation on the file with its descriptor kept open throughout. */
  async pinned<T>(path: string, fn: (fd: number) => Promise<T>): Promise<T> {
    const fd = this.use(path)
    const entry = this.entries.get(path)
    if (entry) entry.pins++
    try {
      return await fn(fd)
    } finally {
      if (entry) entry.pins--
      if (entry?.closing && entry.pins === 0) closeSync(entry.fd)
      this.evict()
    }
  }

  /**
   * Closes the file's descriptor, once no operation holds it: a write or fdatasync in flight on
   * a closed descriptor would fail, or land in whatever file reused its number.
   */
  close(path: string): void {
    const entry = this.entries.get(path)
    if (!entry) return
    this.entries.delete(path)
    if (entry.pins > 0) entry.closing = true
    else closeSync(entry.fd)
  }

  private evict(): void {
    if (this.entries.size <= MAX_OPEN) return
    for (const [path, entry] of this.entries) {
      if (this.entries.size <= MAX_OPEN) return
      if (entry.pins > 0) continue
      this.entries.delete(path)
      closeSync(entry.fd)
    }
  }
}

export const fdCache = new FdCache()
