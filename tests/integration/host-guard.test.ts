// Local mode answers only under loopback names (and PUBLIC_URL's, and the HOST it listens on):
// a page on an attacker's domain that rebinds its name to 127.0.0.1 reaches the server with
// its own name in Host and a matching Origin, which would pass the same-origin check.
import { describe, expect, it } from 'vitest'
import { Browser, buildApp, uniqueEmail } from '../support/app.ts'
import { countRows, useControlPlaneDatabase } from '../support/database.ts'

const database = useControlPlaneDatabase()

const signIn = (app: ReturnType<typeof buildApp>, origin: string) =>
  new Browser(app, origin).postJson('/api/public/auth/local/login', {
    name: 'Rebound',
    email: uniqueEmail('rebound'),
  })

describe('local mode', () => {
  it('refuses a request addressed to any other name, before it does anything', async () => {
    const app = buildApp(database.db)
    const before = await countRows(database.db, 'users')
    for (const origin of [
      'http://rebind.attacker.example:6101',
      'http://localhost.attacker.example:5133',
      'http://10.0.0.5:5133',
    ]) {
      const response = await signIn(app, origin)
      expect(response.status, origin).toBe(421)
      expect(await response.json()).toEqual({
        message: expect.stringContaining('PUBLIC_URL'),
      })
      const page = await new Browser(app, origin).get('/sources')
      expect(page.status, origin).toBe(421)
    }
    expect(await countRows(database.db, 'users')).toBe(before)
  })

  it('answers at loopback names and addresses', async () => {
    const app = buildApp(database.db)
    for (const origin of [
      'http://localhost:5133',
      'http://app.localhost:5133',
      'http://127.0.0.1:5133',
      'http://127.1.2.3',
      'http://[::1]:5133',
    ])
      expect((await signIn(app, origin)).status, origin).toBe(200)
  })

  it("answers at PUBLIC_URL's name and at the HOST it listens on", async () => {
    const app = buildApp(database.db, {
      PUBLIC_URL: 'http://sluice.lan:5133',
      HOST: '192.168.1.20',
    })
    expect((await signIn(app, 'http://sluice.lan:5133')).status).toBe(200)
    const atHost = await new Browser(app, 'http://192.168.1.20:5133').get(
      '/api/public/health',
    )
    expect(atHost.status).toBe(200)
  })
})

describe('hosted mode', () => {
  it('is not limited to loopback names (PUBLIC_URL and a proxy decide)', async () => {
    const app = buildApp(database.db, {
      SLUICE_MODE: 'hosted',
      SLUICE_SECRET: 'hosted-secret-'.padEnd(32, 'x'),
      PUBLIC_URL: 'https://sluice.example.com',
    })
    const response = await new Browser(app, 'https://sluice.example.com').get(
      '/api/public/health',
    )
    expect(response.status).toBe(200)
  })
})
