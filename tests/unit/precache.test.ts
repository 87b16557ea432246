// The precache settings (scripts/build/precache.ts) run through workbox-build, as the build runs
// them, over a build directory shaped like one with PGlite and the local store's seed in it.
import {
  mkdirSync,
  mkdtempSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getManifest } from 'workbox-build'
import { precache } from '../../scripts/build/precache.ts'

const MiB = 1024 * 1024
let dist: string

/** Writes `path` under dist: given contents, or a (sparse) file of `size` bytes. */
function file(path: string, contents: string | number) {
  const full = join(dist, path)
  mkdirSync(dirname(full), { recursive: true })
  writeFileSync(full, typeof contents === 'string' ? contents : '')
  if (typeof contents === 'number') truncateSync(full, contents)
}

beforeAll(() => {
  mkdirSync('node_modules/.tmp', { recursive: true })
  dist = mkdtempSync(join(process.cwd(), 'node_modules/.tmp/precache-test-'))
  file('index.html', '<div id="root"></div>')
  file('favicon.svg', '<svg/>')
  file('icons/icon-192.png', 'png')
  file('assets/index-abc123.js', 'export {}')
  file('assets/index-abc123.js.map', '{}')
  file('assets/index-abc123.css', 'body{}')
  file('assets/pglite-abc123.wasm', 9 * MiB)
  file('assets/pglite-abc123.data', 5 * MiB)
  file('local-store-seed.tar.gz', 2 * MiB)
})

afterAll(() => {
  rmSync(dist, { recursive: true, force: true })
})

describe('the precache', () => {
  // The 9 MiB .wasm alone is over workbox's default limit of 2 MiB.
  it('takes the shell, PGlite and the seed, whole, and no source maps', async () => {
    const { manifestEntries, warnings } = await getManifest({
      globDirectory: dist,
      ...precache,
    })
    expect(warnings).toEqual([])
    expect(manifestEntries?.map((entry) => entry.url).sort()).toEqual([
      'assets/index-abc123.css',
      'assets/index-abc123.js',
      'assets/pglite-abc123.data',
      'assets/pglite-abc123.wasm',
      'favicon.svg',
      'icons/icon-192.png',
      'index.html',
      'local-store-seed.tar.gz',
    ])
  })

  it('still has a size limit, above PGlite', async () => {
    file('assets/huge-abc123.wasm', 40 * MiB)
    const { manifestEntries, warnings } = await getManifest({
      globDirectory: dist,
      ...precache,
    }).finally(() => rmSync(join(dist, 'assets/huge-abc123.wasm')))
    expect(warnings.join('\n')).toContain('huge-abc123.wasm')
    expect(manifestEntries?.map((entry) => entry.url)).not.toContain(
      'assets/huge-abc123.wasm',
    )
  })
})
