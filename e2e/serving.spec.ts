import { expect, test } from './support/fixtures.ts'

test('client routes get the app; server paths never do', async ({
  request,
}) => {
  const page = await request.get('/teams/anything/else')
  expect(page.status()).toBe(200)
  expect(page.headers()['content-type']).toContain('text/html')
  expect(page.headers()['cache-control']).toBe('no-cache')
  expect(await page.text()).toContain('<div id="root">')

  for (const path of [
    '/api/nothing-here',
    '/v1/nothing-here',
    '/api/v1/unknown',
  ]) {
    const response = await request.get(path)
    expect(response.status(), path).toBeGreaterThanOrEqual(400)
    expect(response.headers()['content-type'], path).toContain(
      'application/json',
    )
  }
})

test('every response carries the security headers', async ({ request }) => {
  for (const path of ['/', '/sources', '/api/public/health']) {
    const headers = (await request.get(path)).headers()
    const csp = headers['content-security-policy'] ?? ''
    expect(csp, path).toContain("'wasm-unsafe-eval'")
    expect(csp, path).toContain("frame-ancestors 'none'")
    expect(csp, path).not.toContain("'unsafe-eval'")
    expect(headers['x-content-type-options'], path).toBe('nosniff')
    // Served over http here: no HSTS.
    expect(headers['strict-transport-security'], path).toBeUndefined()
  }
})

test('hashed assets are cached for good', async ({ request }) => {
  const html = await (await request.get('/')).text()
  const asset = /\/assets\/[^"]+\.js/.exec(html)?.[0]
  expect(asset).toBeTruthy()
  const response = await request.get(asset ?? '')
  expect(response.status()).toBe(200)
  expect(response.headers()['cache-control']).toContain('immutable')
})

test('no source maps are served: the production build ships none', async ({
  request,
}) => {
  const html = await (await request.get('/')).text()
  const assets = [...html.matchAll(/\/assets\/[^"]+\.js/g)].map((m) => m[0])
  expect(assets.length).toBeGreaterThan(0)
  for (const script of [...assets, '/sw.js']) {
    const code = await (await request.get(script)).text()
    expect(code.includes('sourceMappingURL'), script).toBe(false)
    const map = await request.get(`${script}.map`)
    // Whatever answers (a 404, or the app's page for a path it routes), it is not a map.
    const body = await map.text()
    expect(body.includes('"mappings"'), `${script}.map`).toBe(false)
  }
})
