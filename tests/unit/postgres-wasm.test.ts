// Postgres's wasm for the store's worker (src/app/db/worker/postgres-wasm.ts): from the network (the
// browser's HTTP cache), else, offline with that copy evicted, from the service worker's
// precache. Fetch and Cache Storage are the browser's; here they are stand-ins.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { compilePostgres } from '../../src/app/db/worker/postgres-wasm.ts'

// The smallest valid module: the magic number and version 1.
const EMPTY_MODULE = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0])
const wasmResponse = () =>
  new Response(EMPTY_MODULE, {
    headers: { 'content-type': 'application/wasm' },
  })
const offline = new TypeError('Failed to fetch')

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('compilePostgres', () => {
  it('compiles what the network answers', async () => {
    const match = vi.fn()
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => wasmResponse()),
    )
    vi.stubGlobal('caches', { match })
    expect(await compilePostgres()).toBeInstanceOf(WebAssembly.Module)
    expect(match).not.toHaveBeenCalled()
  })

  it('falls back to the precached copy when the network fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(offline)),
    )
    const match = vi.fn(async () => wasmResponse())
    vi.stubGlobal('caches', { match })
    expect(await compilePostgres()).toBeInstanceOf(WebAssembly.Module)
    expect(match).toHaveBeenCalledWith(expect.stringMatching(/pglite.*\.wasm/))
  })

  it('reports the network failure when nothing is precached', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(offline)),
    )
    vi.stubGlobal('caches', { match: vi.fn(async () => undefined) })
    await expect(compilePostgres()).rejects.toBe(offline)
  })
})
