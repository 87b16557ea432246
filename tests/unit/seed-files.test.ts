// The seed's archive, read as the store's worker reads it (db/worker/seed-files.ts): every
// entry the build wrote, with its contents and time.
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { untar } from '../../src/app/db/worker/seed-files.ts'
import { tarball, type TreeFS } from '../../scripts/seed/tarball.ts'

// A tree as PGlite's file system would show it: directories and files by path.
function tree(files: Record<string, string | null>): TreeFS {
  const isDir = (path: string) =>
    path === '/data' || files[path.slice('/data/'.length)] === null
  return {
    readdir: (path) => {
      const prefix = path === '/data' ? '' : `${path.slice('/data/'.length)}/`
      return Object.keys(files)
        .filter((name) => name.startsWith(prefix))
        .map((name) => name.slice(prefix.length))
        .filter((name) => name !== '' && !name.includes('/'))
    },
    stat: (path) => ({ mode: isDir(path) ? 0o040755 : 0o100644 }),
    isDir: (mode) => (mode & 0o170000) === 0o040000,
    readFile: (path) =>
      new TextEncoder().encode(files[path.slice('/data/'.length)] ?? ''),
  }
}

describe('untar', () => {
  it('reads back what the seed build writes', () => {
    const mtimeMs = Date.UTC(2026, 0, 1)
    const archive = tarball(
      tree({
        PG_VERSION: '18\n',
        base: null,
        'base/5': null,
        'base/5/1259': 'x'.repeat(1_000),
        'base/5/empty': '',
      }),
      '/data',
      mtimeMs,
    )
    const files = untar(gunzipSync(archive))
    expect(
      files.map((f) => [
        f.path,
        f.contents && new TextDecoder().decode(f.contents),
        f.mtimeMs,
      ]),
    ).toEqual([
      ['PG_VERSION', '18\n', mtimeMs],
      ['base', null, mtimeMs],
      ['base/5', null, mtimeMs],
      ['base/5/1259', 'x'.repeat(1_000), mtimeMs],
      ['base/5/empty', '', mtimeMs],
    ])
  })

  it('refuses an archive it does not know', () => {
    const block = new Uint8Array(512)
    block.set(new TextEncoder().encode('link'), 0)
    block.set(new TextEncoder().encode('2'), 156)
    expect(() => untar(block)).toThrow('not a plain ustar archive')
  })
})
