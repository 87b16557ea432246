// mountSpa over small build directories: files with the right caching, client routes get the
// app, a missing file is a 404, never the app's HTML, and the server bundle is never served.
import { Hono } from 'hono'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { AppEnv } from '../../src/server/platform/http/context.ts'
import { mountSpa, readIndexHtml } from '../../src/server/platform/http/spa.ts'

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** The app serving a build made of `files` (path to contents). */
function serving(files: Record<string, string>): Hono<AppEnv> {
  mkdirSync('node_modules/.tmp', { recursive: true })
  const dist = mkdtempSync(join(process.cwd(), 'node_modules/.tmp/spa-test-'))
  dirs.push(dist)
  for (const [path, contents] of Object.entries(files)) {
    mkdirSync(dirname(join(dist, path)), { recursive: true })
    writeFileSync(join(dist, path), contents)
  }
  const app = new Hono<AppEnv>()
  mountSpa(app, dist, readIndexHtml(dist))
  return app
}

const app = serving({
  'index.html': '<div id="root"></div>',
  'assets/index-abc123.js': 'export {}',
  'sw.js': 'self.skipWaiting',
  'manifest.webmanifest': '{"name":"Sluice"}',
  'server/index.js': 'startTheServer()',
})

describe('the built dashboard', () => {
  it('serves the service worker and the manifest for revalidation on every load', async () => {
    const sw = await app.request('/sw.js')
    expect(sw.status).toBe(200)
    expect(sw.headers.get('content-type')).toMatch(
      /^(text|application)\/javascript/,
    )
    expect(sw.headers.get('cache-control')).toBe('no-cache')

    const manifest = await app.request('/manifest.webmanifest')
    expect(manifest.status).toBe(200)
    expect(manifest.headers.get('content-type')).toBe(
      'application/manifest+json',
    )
    expect(manifest.headers.get('cache-control')).toBe('no-cache')
  })

  it('caches hashed assets for good', async () => {
    const asset = await app.request('/assets/index-abc123.js')
    expect(asset.status).toBe(200)
    expect(asset.headers.get('cache-control')).toContain('immutable')
  })

  it.each(['/', '/sources', '/teams/7d0f2a34-8a4f-4c55-9a57-3f1b5d7b2c11'])(
    'answers the client route %s with the app',
    async (path) => {
      const response = await app.request(path)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toContain('text/html')
      expect(response.headers.get('cache-control')).toBe('no-cache')
      expect(await response.text()).toContain('<div id="root">')
    },
  )

  it.each([
    '/workbox-abc.js',
    '/assets/index-OLDHASH.js',
    '/api/nothing',
    '/v1/x',
  ])('answers a missing %s with a 404, not the app', async (path) => {
    const response = await app.request(path)
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toContain('application/json')
    expect(response.headers.get('cache-control')).toBeNull()
  })

  it.each([
    '/server/index.js',
    '//server/index.js',
    '/./server/index.js',
    '/%73erver/index.js',
    '/assets/../server/index.js',
  ])(
    'never serves the server bundle the build holds beside the dashboard (%s)',
    async (path) => {
      const response = await app.request(`http://localhost${path}`)
      expect(response.status).toBeGreaterThanOrEqual(400)
      expect(await response.text()).not.toContain('startTheServer')
    },
  )

  it('answers /sw.js with a 404 when the build has none, so a browser drops its worker', async () => {
    const withoutWorker = serving({ 'index.html': '<div id="root"></div>' })
    const response = await withoutWorker.request('/sw.js')
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).not.toContain('text/html')
  })
})
