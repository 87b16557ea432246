// Debian's Chromium driven by Playwright (never a downloaded browser), a signed-in context
// with the text probe in every page, and what the pages' shape requests tell about sync.
import { chromium, type BrowserContext, type Page } from '@playwright/test'
import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { LIVE_WATCH_PATH } from '../../../src/shared/live-watch.ts'
import { chromiumLaunchOptions } from '../../chromium.ts'
import type { Cleanup } from './cleanup.ts'
import {
  installProbe,
  KEEP_NAMES_SHIM,
  type ProbeWindow,
  type Sighting,
} from './in-page.ts'
import { until } from './wait.ts'

/**
 * One browser profile, kept on disk like a user's: every page shares its service worker and
 * local store, and Chromium keeps its compiled-code caches (which it does not keep for the
 * in-memory, incognito-like contexts of browser.newContext).
 */
export async function openProfile(
  cleanup: Cleanup,
  url: string,
  watchFromStart: string[],
  pageErrors: string[],
): Promise<BrowserContext> {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-bench-profile-'))
  cleanup.add('browser profile', () =>
    rm(dir, { recursive: true, force: true }),
  )
  const context = await chromium.launchPersistentContext(dir, {
    ...chromiumLaunchOptions,
    baseURL: url,
    // Playwright's own handlers would close the browser and exit at once, leaving the server
    // running: this run's cleanup (onSignals) closes it in its turn.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  })
  cleanup.add('browser', () => context.close())
  context.on('weberror', (e) => pageErrors.push(e.error().message))
  await context.addInitScript({ content: KEEP_NAMES_SHIM })
  await context.addInitScript(installProbe, watchFromStart)
  return context
}

export type User = { name: string; email: string }

/** The real local sign-in endpoint; the session cookie lands in the context. */
export async function signIn(
  context: BrowserContext,
  url: string,
): Promise<User> {
  const id = randomUUID().slice(0, 8)
  const user = { name: `Bench ${id}`, email: `bench-${id}@example.com` }
  const response = await context.request.post('/api/public/auth/local/login', {
    data: user,
    headers: { origin: url },
  })
  if (response.status() !== 200)
    throw new Error(`local sign-in answered ${response.status()}`)
  return user
}

export function watchText(page: Page, text: string): Promise<void> {
  return page.evaluate(
    (t) => (globalThis as unknown as ProbeWindow).__sluiceBench.watch(t),
    text,
  )
}

export function seenText(
  page: Page,
  text: string,
  timeoutMs: number,
): Promise<Sighting | null> {
  return page.evaluate(
    ([t, ms]) =>
      (globalThis as unknown as ProbeWindow).__sluiceBench.seen(t, ms),
    [text, timeoutMs] as const,
  )
}

/**
 * Shape paths (`/v1/...`) the page requested, and those it follows live (caught up): a live
 * request is held in the profile's watch (POST /v1/watch) until the server has something for
 * it, so the watch's body names them.
 */
export function trackShapes(page: Page) {
  const requested = new Set<string>()
  const live = new Set<string>()
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.pathname === LIVE_WATCH_PATH) {
      const body = request.postDataJSON() as { requests?: string[] } | null
      for (const path of body?.requests ?? [])
        live.add(new URL(path, url).pathname)
      return
    }
    if (!url.pathname.startsWith('/v1/')) return
    requested.add(url.pathname)
    if (url.searchParams.get('live') === 'true') live.add(url.pathname)
  })
  return { requested, live }
}

/** Every shape the page follows is long-polling, the sources shape among them. */
export async function waitForLiveShapes(
  shapes: ReturnType<typeof trackShapes>,
): Promise<void> {
  await until(
    () =>
      shapes.live.has('/v1/sources') &&
      [...shapes.requested].every((path) => shapes.live.has(path)),
    `every shape live (${[...shapes.requested].filter((p) => !shapes.live.has(p)).join(', ')} not yet)`,
  )
}

/** The first visit's store written to IndexedDB (first-sync.ts marks it). */
export async function waitForStoreSaved(page: Page): Promise<void> {
  await until(
    async () =>
      (await page.evaluate(
        "performance.getEntriesByName('sluice:store-saved').length > 0",
      )) === true,
    'the local store to be saved',
  )
}

/** The service worker has taken the page (the first one claims it without a reload). */
export async function waitForControl(page: Page): Promise<void> {
  await page.evaluate('navigator.serviceWorker.ready.then(() => undefined)')
  await until(
    async () =>
      (await page.evaluate('navigator.serviceWorker.controller !== null')) ===
      true,
    'the service worker to control the page',
  )
}
