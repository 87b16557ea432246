// Postgres's WebAssembly module, compiled for the store's worker.
//
// Compiling it ourselves lets it start while the file-system image is still being read (PGlite
// would read that first), and fetching it past the service worker (sw/sw.ts) lets Chromium
// reuse the optimized code it kept from the last visit: the Postgres start and the first
// queries then run several times faster.
import pgliteWasmUrl from '@electric-sql/pglite/pglite.wasm?url'

export async function compilePostgres(): Promise<WebAssembly.Module> {
  try {
    return await WebAssembly.compileStreaming(fetch(pgliteWasmUrl))
  } catch (error) {
    // Offline, with the HTTP cache's copy evicted: the service worker's precached one.
    const cached = await caches.match(pgliteWasmUrl).catch(() => undefined)
    if (!cached) throw error
    return WebAssembly.compileStreaming(cached)
  }
}
