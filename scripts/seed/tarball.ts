// Writes a directory of PGlite's in-memory file system as a gzipped ustar archive whose bytes
// depend only on the files' names and contents. PGlite's own dumpDataDir stamps each entry
// with the current time (access and create times); here every entry gets one fixed time,
// owner 0:0 and a plain mode, entries are sorted by name, and the gzip header has no time.
import { gzipSync } from 'node:zlib'

/** The part of Emscripten's FS this needs (PGlite's `pg.Module.FS`). */
export interface TreeFS {
  readdir(path: string): string[]
  stat(path: string): { mode: number }
  isDir(mode: number): boolean
  readFile(path: string, options: { encoding: 'binary' }): Uint8Array
}

type Entry = { name: string; data: Uint8Array | null }

const BLOCK = 512
// gzip header byte 9 names the OS that wrote it; zlib fills in its own, so fix it to 255
// ("unknown") and the archive is the same whichever system built it.
const GZIP_OS_BYTE = 9

/** Every file and directory under `root`, named relative to it, sorted by code unit. */
function entries(fs: TreeFS, root: string): Entry[] {
  const found: Entry[] = []
  const walk = (dir: string, prefix: string) => {
    for (const child of fs.readdir(dir)) {
      if (child === '.' || child === '..') continue
      const path = `${dir}/${child}`
      const name = `${prefix}${child}`
      if (fs.isDir(fs.stat(path).mode)) {
        found.push({ name, data: null })
        walk(path, `${name}/`)
      } else {
        found.push({ name, data: fs.readFile(path, { encoding: 'binary' }) })
      }
    }
  }
  walk(root, '')
  return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

function octal(header: Buffer, at: number, width: number, value: number) {
  header.write(value.toString(8).padStart(width - 1, '0') + '\0', at, 'ascii')
}

function header(entry: Entry, mtimeSeconds: number): Buffer {
  if (Buffer.byteLength(entry.name) > 100)
    throw new Error(`seed tarball: name too long for ustar: ${entry.name}`)
  const block = Buffer.alloc(BLOCK)
  block.write(entry.name, 0, 'utf8')
  octal(block, 100, 8, entry.data ? 0o644 : 0o755)
  octal(block, 108, 8, 0) // uid
  octal(block, 116, 8, 0) // gid
  octal(block, 124, 12, entry.data?.length ?? 0)
  octal(block, 136, 12, mtimeSeconds)
  block.write(entry.data ? '0' : '5', 156, 'ascii')
  block.write('ustar\x0000', 257, 'ascii')
  // The checksum is summed with its own field read as eight spaces.
  block.fill(' ', 148, 156)
  const sum = block.reduce((total, byte) => total + byte, 0)
  block.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'ascii')
  return block
}

export function tarball(
  fs: TreeFS,
  root: string,
  mtimeMs: number,
): Uint8Array<ArrayBuffer> {
  const parts: Uint8Array[] = []
  for (const entry of entries(fs, root)) {
    parts.push(header(entry, Math.floor(mtimeMs / 1000)))
    if (!entry.data) continue
    parts.push(entry.data)
    const padding = (BLOCK - (entry.data.length % BLOCK)) % BLOCK
    parts.push(Buffer.alloc(padding))
  }
  parts.push(Buffer.alloc(2 * BLOCK)) // end of archive
  const gzipped = gzipSync(Buffer.concat(parts))
  gzipped[GZIP_OS_BYTE] = 255
  return new Uint8Array(gzipped)
}
