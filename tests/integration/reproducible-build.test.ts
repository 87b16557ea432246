// The same sources build to the same bytes, or every restart of `npm start` would tell open
// tabs 'A new version is available' (the service worker's precache list names each file's
// hash). Compares two real builds, dist/ and one beside it, then runs `npm start` with a port
// it refuses, to see it skip the build and go on to the server. `npm test` builds dist/ just
// before this phase: when it is current for the sources, that build is the first of the two
// (built by the same script); otherwise this test builds it.
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { STAMP_FILE } from '../../scripts/build/inputs.ts'

const exec = promisify(execFile)
const BUILD_MS = 120_000

let other: string
beforeAll(() => {
  mkdirSync('node_modules/.tmp', { recursive: true })
  other = mkdtempSync(join(process.cwd(), 'node_modules/.tmp/build-again-'))
})
afterAll(() => {
  rmSync(other, { recursive: true, force: true })
})

/** Every file under `dir` by its path, with the SHA-256 of its contents. */
function tree(dir: string): Record<string, string> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
  return Object.fromEntries(
    files
      .map((file) => [
        file.slice(dir.length + 1),
        createHash('sha256').update(readFileSync(file)).digest('hex'),
      ])
      .sort(([a], [b]) => (a! < b! ? -1 : 1)),
  )
}

/**
 * This process's environment less what Vitest adds: NODE_ENV=test would make Vite bundle the
 * libraries' development code, a build no user gets (and `npm test` serves dist/ to the e2e
 * run after this test).
 */
const userEnv = Object.fromEntries(
  Object.entries(process.env).filter(
    ([name]) => name !== 'NODE_ENV' && !name.startsWith('VITEST'),
  ),
)

/** Runs an npm script, with its output (both streams) whatever its exit code. */
async function npm(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = exec('npm', args, {
    env: { ...userEnv, ...env },
    maxBuffer: 16 * 1024 * 1024,
  })
  return child.then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      output: error.stdout + error.stderr,
    }),
  )
}

describe('the build', () => {
  it(
    'writes the same bytes twice, and npm start then skips it',
    async () => {
      const first = await npm(['run', 'build', '--', '--if-changed'])
      expect(first.code, first.output).toBe(0)
      const second = await npm(['run', 'build', '--', '--out-dir', other])
      expect(second.code, second.output).toBe(0)
      // npm run build always builds: both runs made a seed.
      expect(second.output).toContain('local store seed:')
      // A production bundle: with NODE_ENV=test, emotion's development code (its source-map
      // comment pattern) lands in a chunk, and the e2e run finds a source map reference.
      const withMapCode = readdirSync(join(other, 'assets')).filter(
        (name) =>
          name.endsWith('.js') &&
          readFileSync(join(other, 'assets', name), 'utf8').includes(
            'sourceMappingURL',
          ),
      )
      expect(withMapCode).toEqual([])

      const built = tree('dist')
      expect(Object.keys(built)).toEqual(
        expect.arrayContaining([
          'index.html',
          'sw.js',
          'local-store-seed.tar.gz',
          STAMP_FILE,
        ]),
      )
      expect(tree(other)).toEqual(built)

      // A port the server refuses ends it right after it starts, with no listening to stop.
      const start = await npm(['start'], { PORT: 'not-a-port' })
      expect(start.output).toContain('dist is current for the sources')
      expect(start.output).not.toContain('local store seed:')
      expect(start.output).toContain('PORT:')
      expect(start.code).not.toBe(0)
      expect(tree('dist')).toEqual(built)
    },
    3 * BUILD_MS,
  )
})
