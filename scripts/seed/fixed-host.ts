// Makes this process's clocks and randomness fixed, so PGlite (initdb and Postgres, compiled to
// wasm) writes the same data directory on every run. Postgres stamps its files with the host's
// time and chance: the system identifier (initdb's clock and pid) in pg_control and in every WAL
// page header, the checkpoint times, commit records' timestamps, `now()` in rows, file mtimes in
// the tarball, and pg_control's random mock-authentication nonce. Only the seed build uses this.
import nodeCrypto, { createHash } from 'node:crypto'

// 2026-01-01T00:00:00Z; SOURCE_DATE_EPOCH (seconds, the reproducible-builds convention) wins.
const DEFAULT_EPOCH_MS = Date.UTC(2026, 0, 1)

export function seedEpochMs(env = process.env): number {
  const seconds = Number(env.SOURCE_DATE_EPOCH)
  return env.SOURCE_DATE_EPOCH && Number.isInteger(seconds)
    ? seconds * 1000
    : DEFAULT_EPOCH_MS
}

/** Bytes from SHA-256 in counter mode: looks random to Postgres, is the same on every run. */
function fixedRandomFill(): <T extends NodeJS.ArrayBufferView>(view: T) => T {
  let counter = 0
  return (view) => {
    const out = new Uint8Array(view.buffer, view.byteOffset, view.byteLength)
    for (let at = 0; at < out.length; at += 32) {
      const block = createHash('sha256')
        .update(`sluice-local-store-seed:${counter++}`)
        .digest()
      out.set(block.subarray(0, out.length - at), at)
    }
    return view
  }
}

/**
 * Freezes the wall clock at the seed epoch and the monotonic clock at zero, and replaces
 * node:crypto's randomFillSync (Emscripten's entropy source under Node). Postgres runs in
 * single-user mode here, one statement at a time, so nothing waits for time to pass.
 */
export function fixHost(epochMs = seedEpochMs()): void {
  Date.now = () => epochMs
  performance.now = () => 0
  // Emscripten requires node:crypto and calls randomFillSync on it at each use.
  nodeCrypto.randomFillSync =
    fixedRandomFill() as typeof nodeCrypto.randomFillSync
}
