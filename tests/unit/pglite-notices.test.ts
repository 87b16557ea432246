// The build drops exactly PGlite's two known notices (scripts/build/pglite-notices.ts) and
// passes every other warning on.
import { describe, expect, it, vi } from 'vitest'
import type { Rolldown } from 'vite'
import {
  isKnownPgliteNotice,
  quietPgliteNotices,
} from '../../scripts/build/pglite-notices.ts'

const PGLITE_CHUNK =
  '/work/app/node_modules/@electric-sql/pglite/dist/chunk-N66TTF7B.js'
const evalIn = (id: string): Rolldown.RollupLog => ({
  code: 'EVAL',
  id,
  message: 'Use of direct `eval` function is strongly discouraged',
})
const externalizedIn = (id: string): Rolldown.RollupLog => ({
  plugin: 'rolldown:vite-resolve',
  message: `Module "node:module" has been externalized for browser compatibility, imported by "${id}".`,
})

describe('isKnownPgliteNotice', () => {
  it("knows PGlite's eval and node:module notices", () => {
    expect(isKnownPgliteNotice(evalIn(PGLITE_CHUNK))).toBe(true)
    expect(isKnownPgliteNotice(externalizedIn(PGLITE_CHUNK))).toBe(true)
  })

  it('keeps the same notices about any other code', () => {
    expect(isKnownPgliteNotice(evalIn('/work/app/src/app/main.tsx'))).toBe(
      false,
    )
    expect(
      isKnownPgliteNotice(externalizedIn('/work/app/node_modules/other/a.js')),
    ).toBe(false)
  })

  it("keeps PGlite's other warnings", () => {
    expect(
      isKnownPgliteNotice({
        code: 'CIRCULAR_DEPENDENCY',
        id: PGLITE_CHUNK,
        message: 'Circular dependency',
      }),
    ).toBe(false)
    // Another Node module externalized could break PGlite in the browser: say so.
    expect(
      isKnownPgliteNotice({
        plugin: 'rolldown:vite-resolve',
        message: `Module "node:fs" has been externalized for browser compatibility, imported by "${PGLITE_CHUNK}".`,
      }),
    ).toBe(false)
  })
})

describe('quietPgliteNotices', () => {
  it('hands on everything but the known notices', () => {
    const next = vi.fn()
    quietPgliteNotices('warn', evalIn(PGLITE_CHUNK), next)
    quietPgliteNotices('warn', evalIn('/work/app/src/a.ts'), next)
    quietPgliteNotices('info', evalIn(PGLITE_CHUNK), next)
    expect(next.mock.calls.map(([level, log]) => [level, log.id])).toEqual([
      ['warn', '/work/app/src/a.ts'],
      ['info', PGLITE_CHUNK],
    ])
  })
})
