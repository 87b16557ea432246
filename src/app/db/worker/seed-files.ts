// The seed (scripts/build-local-seed.ts): an empty database, every client migration applied,
// that a browser's first visit starts from instead of running initdb in wasm.
//
// It is read here, while the worker waits for Postgres's code, into files the store's file
// system writes at once (store-fs.ts), rather than handed to PGlite as a tarball: PGlite
// unpacks that after Postgres's code is up, on the way to the first synced rows (0.1-0.15 s on
// a first visit). The archive is the plain ustar that scripts/seed/tarball.ts writes, gzipped.

export type SeedFile = {
  /** Relative to the data directory. */
  path: string
  /** Null for a directory. */
  contents: Uint8Array | null
  mtimeMs: number
}

const BLOCK = 512

export async function readSeed(url: string): Promise<SeedFile[] | undefined> {
  const response = await fetch(url)
  if (!response.ok || !response.body) return undefined
  const tar = response.body.pipeThrough(new DecompressionStream('gzip'))
  return untar(new Uint8Array(await new Response(tar).arrayBuffer()))
}

export function untar(tar: Uint8Array): SeedFile[] {
  const files: SeedFile[] = []
  const text = new TextDecoder()
  let at = 0
  while (at + BLOCK <= tar.length) {
    const header = tar.subarray(at, at + BLOCK)
    // Two zero blocks end the archive; one is enough to stop at.
    if (header.every((byte) => byte === 0)) break
    const field = (from: number, length: number) =>
      text.decode(header.subarray(from, from + length)).replace(/\0.*$/s, '')
    const path = field(0, 100)
    const size = parseInt(field(124, 12).trim() || '0', 8)
    const mtimeMs = parseInt(field(136, 12).trim() || '0', 8) * 1000
    const type = field(156, 1)
    if (!path || Number.isNaN(size) || (type !== '0' && type !== '5'))
      throw new Error(`the local store's seed is not a plain ustar archive`)
    at += BLOCK
    files.push({
      path,
      contents: type === '5' ? null : tar.slice(at, at + size),
      mtimeMs,
    })
    at += Math.ceil(size / BLOCK) * BLOCK
  }
  return files
}
