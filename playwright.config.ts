import { defineConfig, devices } from '@playwright/test'
import { chromiumLaunchOptions } from './scripts/chromium.ts'

// E2E runs the production build, served by the real server (embedded Postgres, local
// sign-in), in Debian's Chromium.
// Below Linux's ephemeral range (32768-60999): a port the kernel hands out to some other
// process's socket (an embedded Postgres on a free port, say) can never take it first.
const port = Number(process.env.E2E_PORT ?? 21730)
const baseURL = `http://localhost:${port}`

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  // One browser at a time: each compiles PGlite's wasm, and two at once starve 2 cores.
  workers: 1,
  reporter: process.env.CI ? 'list' : [['list'], ['html', { open: 'never' }]],
  timeout: 60_000,
  // A first dashboard visit starts PGlite (wasm, a few seconds on 2 busy cores) and syncs.
  expect: { timeout: 30_000 },
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: {
    command: 'tsx e2e/support/server.ts',
    url: `${baseURL}/api/public/health`,
    env: { PORT: String(port), LOG_LEVEL: 'warn' },
    reuseExistingServer: false,
    timeout: 60_000,
    // SIGTERM (not the default SIGKILL), so the launcher stops the server and its Postgres.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
    stdout: 'pipe',
    stderr: 'pipe',
  },
})
