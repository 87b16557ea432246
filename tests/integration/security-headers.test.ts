// Headers every response carries: a CSP that allows WebAssembly but not eval, no framing,
// no sniffing, and HSTS only when we are served over https.
import { beforeAll, describe, expect, it } from 'vitest'
import { SESSION_COOKIE } from '../../src/server/auth/cookies.ts'
import {
  Browser,
  buildApp,
  ORIGIN,
  uniqueEmail,
  type App,
} from '../support/app.ts'
import { setCookieFor } from '../support/cookie-jar.ts'
import { useControlPlaneDatabase } from '../support/database.ts'

const database = useControlPlaneDatabase()
let app: App
beforeAll(() => {
  app = buildApp(database.db)
})

function directives(csp: string | null): Map<string, string[]> {
  const map = new Map<string, string[]>()
  for (const part of (csp ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/)
    if (name) map.set(name, values)
  }
  return map
}

describe('security headers', () => {
  it.each([
    ['a public API answer', '/api/public/health'],
    ['a 401', '/api/v1/teams'],
    ['a 404', '/nowhere'],
  ])('are on %s', async (_case, path) => {
    const response = await app.request(`${ORIGIN}${path}`)
    const csp = directives(response.headers.get('content-security-policy'))
    expect(csp.get('script-src')).toContain("'wasm-unsafe-eval'")
    for (const values of csp.values())
      expect(values).not.toContain("'unsafe-eval'")
    expect(csp.get('frame-ancestors')).toEqual(["'none'"])
    expect(csp.get('default-src')).toEqual(["'self'"])
    expect(csp.get('object-src')).toEqual(["'none'"])
    // The service worker and the manifest load from our origin.
    expect(csp.get('worker-src')).toContain("'self'")
    expect(csp.get('manifest-src')).toEqual(["'self'"])
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('x-frame-options')).toBe('DENY')
    expect(response.headers.get('referrer-policy')).toBe(
      'strict-origin-when-cross-origin',
    )
  })

  it('mark API answers as not cacheable', async () => {
    const response = await app.request(`${ORIGIN}/api/public/health`)
    expect(response.headers.get('cache-control')).toBe('no-store')
  })

  it('leave out HSTS over http', async () => {
    const response = await app.request(`${ORIGIN}/api/public/health`)
    expect(response.headers.get('strict-transport-security')).toBeNull()
  })

  it('include HSTS, and Secure cookies, when PUBLIC_URL is https', async () => {
    const https = buildApp(database.db, {
      PUBLIC_URL: 'https://sluice.example.com',
    })
    const health = await https.request(
      'https://sluice.example.com/api/public/health',
    )
    expect(health.headers.get('strict-transport-security')).toMatch(
      /^max-age=\d{8,}; includeSubDomains$/,
    )
    // TLS ends at a proxy: the request reaches us over http, PUBLIC_URL still decides.
    const proxied = await https.request(
      'http://10.0.0.5:5133/api/public/health',
    )
    expect(proxied.headers.get('strict-transport-security')).not.toBeNull()

    const browser = new Browser(https, 'https://sluice.example.com')
    const login = await browser.postJson('/api/public/auth/local/login', {
      name: 'Secure',
      email: uniqueEmail('secure'),
    })
    expect(login.status).toBe(200)
    expect(setCookieFor(login, SESSION_COOKIE)?.secure).toBe(true)
  })
})
