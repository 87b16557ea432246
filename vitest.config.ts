// Two projects: unit tests (pure logic of every side, PGlite), and integration tests against one
// embedded Postgres per run (started in the integration project's globalSetup; each test file
// makes its own database).
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    environment: 'node',
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'] },
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
        },
      },
    ],
  },
})
