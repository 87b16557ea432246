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
  // One browser at a time by default. Two (E2E_WORKERS=2) take 6.3-6.8 min rather than about
  // 11 and fit this machine kind's 2 cores, but the dashboard's live syncs hold all 6 of
  // Chromium's connections to the server (issue 35): an action or a navigation then waits for
  // a 20 s long-poll to end, and with two browsers sharing the cores an expectation's 30 s
  // more often spans two of those waits (2 of 4 full runs failed so). Three saturate the
  // cores. Specs that share a fake's state say so with `test.describe.configure({ mode:
  // 'default' })`, so the suite stays correct with any number.
  workers: Number(process.env.E2E_WORKERS ?? 1),
  reporter: process.env.CI ? 'list' : [['list'], ['html', { open: 'never' }]],
  timeout: 60_000,
  // A first dashboard visit starts PGlite (wasm, a few seconds on 2 busy cores) and syncs.
  expect: { timeout: 30_000 },
  use: {
    baseURL,
    // A failed test keeps its trace (actions, network, DOM snapshots), without the screencast:
    // recording every frame of every test cost about a quarter of the run's CPU.
    trace: { mode: 'retain-on-failure', screenshots: false },
    launchOptions: {
      ...chromiumLaunchOptions,
      // Wasm runs on V8's baseline compiler only. Each test's fresh context compiles PGlite's
      // Postgres again, and tiering its hot functions up to the optimizing compiler pays off
      // only in a page that lives far longer than a test: without it a test takes about 30%
      // less CPU. The benchmarks keep the browser's defaults (scripts/chromium.ts).
      args: [...chromiumLaunchOptions.args, '--js-flags=--liftoff-only'],
    },
  },
  projects: [
    {
      name: 'chromium',
      use: { ...devices['Desktop Chrome'] },
      grepInvert: /@alone/,
    },
    // Tests that change what the shared server serves to every browser (a next release of the
    // service worker in dist/), run once the others are done, so no other test sees it.
    {
      name: 'alone',
      use: { ...devices['Desktop Chrome'] },
      grep: /@alone/,
      dependencies: ['chromium'],
    },
  ],
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
