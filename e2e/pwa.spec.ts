// The dashboard as a PWA: installable, its shell served by the service worker from the
// precache, API answers never cached, and a new version offered rather than switched in.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { darkColors } from '../src/app/colors.ts'
import { expect, test } from './support/fixtures.ts'
import {
  builtFiles,
  cachedUrls,
  pngSize,
  releaseNextWorker,
  waitForControl,
} from './support/pwa.ts'

type Manifest = {
  name: string
  short_name: string
  description: string
  id: string
  start_url: string
  scope: string
  display: string
  theme_color: string
  background_color: string
  icons: { src: string; sizes: string; type: string; purpose?: string }[]
}

test('the manifest describes an installable Sluice', async ({
  page,
  request,
}) => {
  await page.goto('/')
  const href = await page.locator('link[rel="manifest"]').getAttribute('href')
  const response = await request.get(href ?? '')
  expect(response.status()).toBe(200)
  expect(response.headers()['content-type']).toBe('application/manifest+json')
  expect(response.headers()['cache-control']).toBe('no-cache')

  const manifest = (await response.json()) as Manifest
  expect(manifest).toMatchObject({
    name: 'Sluice',
    short_name: 'Sluice',
    id: '/',
    start_url: '/sources',
    scope: '/',
    display: 'standalone',
    theme_color: darkColors.background,
    background_color: darkColors.background,
  })
  expect(manifest.description).not.toBe('')
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute(
    'content',
    manifest.theme_color,
  )
  expect(
    manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`),
  ).toEqual(['192x192 any', '512x512 any', '512x512 maskable'])

  const appleIcon = await page
    .locator('link[rel="apple-touch-icon"]')
    .getAttribute('href')
  const icons = [
    ...manifest.icons,
    { src: appleIcon ?? '', sizes: '180x180', type: 'image/png' },
  ]
  for (const icon of icons) {
    const image = await request.get(icon.src)
    expect(image.status(), icon.src).toBe(200)
    expect(image.headers()['content-type'], icon.src).toBe('image/png')
    const { width, height } = pngSize(await image.body())
    expect(`${width}x${height}`, icon.src).toBe(icon.sizes)
  }
})

test('Chromium finds it installable', async ({
  playwright,
  launchOptions,
  baseURL,
}) => {
  // Playwright's contexts are incognito, where Chromium installs nothing: use a real profile.
  const profile = mkdtempSync(join(tmpdir(), 'sluice-pwa-profile-'))
  const context = await playwright.chromium.launchPersistentContext(profile, {
    ...launchOptions,
    baseURL,
  })
  try {
    const page = await context.newPage()
    await page.goto('/')
    const cdp = await context.newCDPSession(page)
    const manifest = await cdp.send('Page.getAppManifest')
    expect(new URL(manifest.url).pathname).toBe('/manifest.webmanifest')
    expect(manifest.errors).toEqual([])
    const { installabilityErrors } = await cdp.send(
      'Page.getInstallabilityErrors',
    )
    expect(installabilityErrors).toEqual([])
  } finally {
    await context.close()
    rmSync(profile, { recursive: true, force: true })
  }
})

test('the service worker controls the page and precaches the whole build', async ({
  page,
  request,
}) => {
  const sw = await request.get('/sw.js')
  expect(sw.status()).toBe(200)
  expect(sw.headers()['content-type']).toContain('javascript')
  expect(sw.headers()['cache-control']).toBe('no-cache')

  await page.goto('/')
  await waitForControl(page)
  const caches = await cachedUrls(page)
  const precached = Object.values(caches)
    .flat()
    .map((url) => new URL(url).pathname)
    .sort()
  expect(precached).toEqual(builtFiles())
  expect(precached).toContain('/index.html')
})

test("Postgres's wasm passes the worker, to the HTTP cache; the rest comes from the precache", async ({
  page,
}) => {
  await page.goto('/')
  await waitForControl(page)
  const files = builtFiles()
  const wasm = files.find((path) => /^\/assets\/pglite-.*\.wasm$/.test(path))
  const initdb = files.find((path) => /^\/assets\/initdb-.*\.wasm$/.test(path))
  expect(wasm).toBeDefined()
  expect(initdb).toBeDefined()
  const answeredByWorker = async (path: string) => {
    const response = page.waitForResponse(
      (r) => new URL(r.url()).pathname === path,
    )
    await page.evaluate((url) => fetch(url).then((r) => r.arrayBuffer()), path)
    return (await response).fromServiceWorker()
  }
  // Chromium keeps compiled code only for HTTP-cache responses (sw/sw.ts).
  expect(await answeredByWorker(wasm!)).toBe(false)
  expect(await answeredByWorker(initdb!)).toBe(true)
})

test('a client route is answered from the precache, not the network', async ({
  page,
  context,
  signIn,
}) => {
  await signIn()
  await page.goto('/')
  await waitForControl(page)

  // Should the document come from the network, it would fail.
  let networkLoads = 0
  await context.route(
    (url) => url.pathname === '/sources',
    (route) => {
      networkLoads += 1
      return route.abort()
    },
  )
  const response = await page.goto('/sources')
  expect(response?.fromServiceWorker()).toBe(true)
  expect(response?.status()).toBe(200)
  await expect(page.getByRole('heading', { name: 'All Sources' })).toBeVisible()
  expect(networkLoads).toBe(0)
})

test('API answers go to the network and never into a cache', async ({
  page,
  signIn,
}) => {
  await signIn()
  await page.goto('/')
  await waitForControl(page)
  // This load's API calls all pass the worker.
  await page.goto('/sources')
  await expect(page.getByRole('heading', { name: 'All Sources' })).toBeVisible()

  const health = page.waitForResponse('**/api/public/health')
  const status = await page.evaluate(() =>
    fetch('/api/public/health').then((r) => r.status),
  )
  expect(status).toBe(200)
  expect((await health).fromServiceWorker()).toBe(false)

  const caches = await cachedUrls(page)
  expect(Object.keys(caches)).toEqual([
    expect.stringContaining('workbox-precache'),
  ])
  const serverPaths = Object.values(caches)
    .flat()
    .filter((url) => /^\/(api|v1|ingest)(\/|$)/.test(new URL(url).pathname))
  expect(serverPaths).toEqual([])
})

// @alone (playwright.config.ts): it changes dist/sw.js, which every other test's browser loads.
test(
  'a new version waits for Reload, then takes over and the page reloads',
  {
    tag: '@alone',
  },
  async ({ page, context }) => {
    await page.goto('/')
    await waitForControl(page)
    await page.evaluate(() => {
      Object.assign(window, { oldPage: true })
    })

    const undoRelease = releaseNextWorker()
    try {
      const nextWorker = context.waitForEvent('serviceworker')
      await page.evaluate(async () => {
        await (await navigator.serviceWorker.getRegistration())?.update()
      })
      const next = await nextWorker

      const toast = page.getByRole('alert').filter({
        hasText: 'A new version is available',
      })
      await expect(toast).toBeVisible()
      // It waits: the old worker still controls this page, which has not reloaded.
      expect(await next.evaluate('self.serviceWorker.state')).toBe('installed')
      expect(await page.evaluate(() => 'oldPage' in window)).toBe(true)

      const reloaded = page.waitForEvent('load')
      await toast.getByRole('button', { name: 'Reload' }).click()
      await reloaded
      expect(await page.evaluate(() => 'oldPage' in window)).toBe(false)
      await waitForControl(page)
      await expect
        .poll(() => next.evaluate('self.serviceWorker.state'))
        .toBe('activated')
      expect(
        await page.evaluate(async () => {
          const registration = await navigator.serviceWorker.getRegistration()
          return registration?.waiting ?? null
        }),
      ).toBeNull()
      await expect(toast).toBeHidden()
    } finally {
      undoRelease()
    }
  },
)
