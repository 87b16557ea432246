// isAppRoute: which paths the server and the service worker answer with the app's HTML.
import { describe, expect, it } from 'vitest'
import { isAppRoute } from '../../src/shared/app-routes.ts'

describe('isAppRoute', () => {
  it.each([
    '/',
    '/sources',
    '/sources/new',
    '/teams/7d0f2a34-8a4f-4c55-9a57-3f1b5d7b2c11',
    '/sign-in/local',
    '/apis',
    '/v1beta',
  ])('%s is a client route', (path) => {
    expect(isAppRoute(path)).toBe(true)
  })

  it.each([
    '/api',
    '/api/',
    '/api/public/health',
    '/v1',
    '/v1/shape',
    '/ingest',
    '/ingest/e/',
  ])('%s belongs to the server', (path) => {
    expect(isAppRoute(path)).toBe(false)
  })

  it.each([
    '/sw.js',
    '/manifest.webmanifest',
    '/assets/index-OLDHASH.js',
    '/local-store-seed.tar.gz',
    '/icons/icon-192.png',
  ])('%s names a file', (path) => {
    expect(isAppRoute(path)).toBe(false)
  })
})
