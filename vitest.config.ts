// Two projects: unit tests (pure logic of every side, PGlite), and integration tests against one
// embedded Postgres per run (started in the integration project's globalSetup; each test file
// makes its own database).
//
// Files run side by side. Unit files are CPU-bound: one worker per core. Integration files
// mostly wait (on Postgres, replication, timers, child processes), so more of them than cores
// fill the time; each has its own databases, ports and temp dirs, never another file's.
// VITEST_MAX_WORKERS overrides both (1 to see a file alone).
import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

const cores = availableParallelism()
const override = Number(process.env.VITEST_MAX_WORKERS) || undefined

export default defineConfig({
  test: {
    environment: 'node',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          maxWorkers: override ?? cores,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: ['tests/support/global-setup.ts'],
          // These files share nothing but the Postgres server (no module mocks, no globals),
          // so reusing workers is safe and halves the run; a file that mocks must opt back in.
          isolate: false,
          maxWorkers: override ?? cores * 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
})
