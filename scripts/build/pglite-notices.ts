// Two notices every build printed about PGlite's bundled Emscripten code, read by newcomers as
// failures. Both are known and harmless for Sluice; only exactly these are dropped, every other
// warning (about PGlite or anything else) still shows.
import type { Rolldown } from 'vite'

const PGLITE = /[\\/]node_modules[\\/]@electric-sql[\\/]pglite[\\/]/

/**
 * - EVAL: Emscripten's loader turns the JS snippets inside a wasm side module (a Postgres
 *   extension) into functions with a direct `eval`. Rolldown only warns that it then keeps the
 *   surrounding names unminified; the code works. Sluice loads no extensions, so it never runs.
 * - node:module externalized: the same loader imports `node:module` only when it runs in Node
 *   (`if (ENVIRONMENT_IS_NODE)`); in the browser that branch is never taken, so Vite's empty
 *   stand-in for the module is never used.
 */
export function isKnownPgliteNotice(log: Rolldown.RollupLog): boolean {
  if (log.code === 'EVAL') return PGLITE.test(log.id ?? '')
  return (
    log.plugin === 'rolldown:vite-resolve' &&
    log.message.startsWith('Module "node:module" has been externalized') &&
    PGLITE.test(log.message)
  )
}

/** A rolldown `onLog` that drops the two notices and hands everything else on. */
export const quietPgliteNotices: NonNullable<Rolldown.InputOptions['onLog']> = (
  level,
  log,
  next,
) => {
  if (level === 'warn' && isKnownPgliteNotice(log)) return
  next(level, log)
}
