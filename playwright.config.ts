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
  // Two browsers side by side: on this machine kind's 2 cores the whole run took about 5 min
  // rather than 10 when it was tuned; three saturate them (E2E_WORKERS sets another number). Two became reliable
  // once the dashboard's live syncs stopped holding Chromium's 6 connections per host (issue
  // 35: one watch per profile): before, an action could wait out a 20 s long-poll, and with
  // two browsers on the cores an expectation's 30 s often spanned two such waits. Specs that
  // share a fake's state say so with `test.describe.configure({ mode: 'default' })`, so the
  // suite stays correct with any number.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  reporter: process.env.CI ? 'list' : [['list'], ['html', { open: 'never' }]],
  // The same run now takes about 25 min on machines of this kind (Chromium 156.0.8078.108, whose
  // pages fault in fresh memory slowly: a first visit's card at 7 s where it was 1.5 s, a
  // commit before and after measured alike), and a journey of several page loads took 59 s
  // alone: these bounds leave such a machine twice the time it needs, and a stuck test still
  // fails in two minutes.
  timeout: 120_000,
  // A first dashboard visit starts PGlite (wasm, several seconds on 2 busy cores) and syncs.
  expect: { timeout: 45_000 },
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
