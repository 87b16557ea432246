// `npm start` rebuilds only when the build's inputs changed (scripts/build/inputs.ts): the hash
// over a project tree shaped like ours, and the decision against a build directory's stamp.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  hashBuildInputs,
  isBuildCurrent,
  STAMP_FILE,
} from '../../scripts/build/inputs.ts'

let root: string

function file(path: string, contents: string) {
  const full = join(root, path)
  mkdirSync(dirname(full), { recursive: true })
  writeFileSync(full, contents)
}

beforeEach(() => {
  mkdirSync('node_modules/.tmp', { recursive: true })
  root = mkdtempSync(join(process.cwd(), 'node_modules/.tmp/build-inputs-'))
  file('src/app/main.tsx', 'render()')
  file('src/app/routes/index.tsx', 'route()')
  file('src/shared/constants.ts', 'export const A = 1')
  file('migrations/client/0001_a.sql', 'create table a ()')
  file('index.html', '<div id="root"></div>')
  file('package-lock.json', '{}')
})
afterEach(() => {
  rmSync(root, { recursive: true, force: true })
})

const hash = (env: NodeJS.ProcessEnv = {}) => hashBuildInputs(root, env)

describe('hashBuildInputs', () => {
  it('is the same for the same tree', () => {
    expect(hash()).toMatch(/^[0-9a-f]{64}$/)
    expect(hash()).toBe(hash())
  })

  it.each([
    ['a source of the app changes', 'src/app/main.tsx', 'render(2)'],
    ['a file is added', 'src/app/features/new.tsx', 'x'],
    ['a client migration is added', 'migrations/client/0002_b.sql', 'x'],
    ['the lockfile changes', 'package-lock.json', '{"a":1}'],
    ['the service worker changes', 'sw/sw.ts', 'self'],
    // The server bundle is built with the dashboard.
    ['the server changes', 'src/server/app.ts', 'x'],
    ['the engine changes', 'src/engine/engine.ts', 'x'],
  ])('changes when %s', (_, path, contents) => {
    const before = hash()
    file(path, contents)
    expect(hash()).not.toBe(before)
  })

  it('changes when a file moves, contents unchanged', () => {
    const before = hash()
    rmSync(join(root, 'src/app/main.tsx'))
    file('src/app/main2.tsx', 'render()')
    expect(hash()).not.toBe(before)
  })

  it.each([
    ['the build writing the seed', 'public/local-store-seed.tar.gz'],
    ['Vite writing the route tree', 'src/app/routeTree.gen.ts'],
    ['a test', 'tests/unit/a.test.ts'],
  ])('stays when %s changes', (_, path) => {
    const before = hash()
    file(path, String(Math.random()))
    expect(hash()).toBe(before)
  })

  it('changes with the settings that change the output', () => {
    expect(hash({ SLUICE_SOURCEMAPS: 'true' })).not.toBe(hash())
    // Vite bundles the libraries' development code under any NODE_ENV but production.
    expect(hash({ NODE_ENV: 'test' })).not.toBe(hash())
    expect(hash({ PORT: '1234' })).toBe(hash())
  })
})

describe('isBuildCurrent', () => {
  const dist = () => join(root, 'dist')

  /** What a finished build leaves: the dashboard's page and the server bundle. */
  const built = () => {
    file('dist/index.html', '<html>')
    file('dist/server/index.js', 'serve()')
    file('dist/server/admin.js', 'admin()')
    file('dist/server/engine.js', 'engine()')
  }

  it('is false with no build, or a build with no stamp', () => {
    expect(isBuildCurrent(dist(), hash())).toBe(false)
    built()
    expect(isBuildCurrent(dist(), hash())).toBe(false)
  })

  it('is true for a build stamped with the inputs as they are', () => {
    built()
    file(`dist/${STAMP_FILE}`, `${hash()}\n`)
    expect(isBuildCurrent(dist(), hash())).toBe(true)
  })

  it('is false for a stamped build without the server bundle', () => {
    file('dist/index.html', '<html>')
    file(`dist/${STAMP_FILE}`, `${hash()}\n`)
    expect(isBuildCurrent(dist(), hash())).toBe(false)
  })

  it('is false for a stamped build without the admin bundle', () => {
    file('dist/index.html', '<html>')
    file('dist/server/index.js', 'serve()')
    file(`dist/${STAMP_FILE}`, `${hash()}\n`)
    expect(isBuildCurrent(dist(), hash())).toBe(false)
  })

  it('is false once a source changed after the build', () => {
    built()
    file(`dist/${STAMP_FILE}`, `${hash()}\n`)
    file('src/shared/constants.ts', 'export const A = 2')
    expect(isBuildCurrent(dist(), hash())).toBe(false)
  })

  it('is false when the stamp outlived the build it described', () => {
    file(`dist/${STAMP_FILE}`, `${hash()}\n`)
    expect(isBuildCurrent(dist(), hash())).toBe(false)
  })
})
