// POST /api/public/validate-pg-database-url through the whole app: 200 with the result, 400
// for URLs we will not check, 429 past the per-IP limit or the cap on running checks.
import { createServer, type Socket } from 'node:net'
import { beforeEach, describe, expect, inject, it } from 'vitest'
import {
  DEFAULT_CHECK_LIMITS,
  type CheckLimits,
} from '../../src/server/validation/rate-limit.ts'
import { VALIDATE_DATABASE_URL_PATH } from '../../src/shared/validation.ts'
import { Browser, buildApp } from '../support/app.ts'
import {
  clearRateLimits,
  useControlPlaneDatabase,
} from '../support/database.ts'

const hosted = {
  SLUICE_MODE: 'hosted',
  SLUICE_SECRET: 'x'.repeat(32),
  PUBLIC_URL: 'http://localhost',
}

const database = useControlPlaneDatabase()
// Every test's app checks from the one in-process address, counted in the control plane.
beforeEach(() => clearRateLimits(database.db))

function browserFor(
  vars: Record<string, string> = {},
  limits?: Partial<CheckLimits>,
) {
  const app = buildApp(database.db, vars, {
    databaseChecks: { limits: { ...DEFAULT_CHECK_LIMITS, ...limits } },
  })
  return new Browser(app)
}

const check = (browser: Browser, databaseUrl: unknown) =>
  browser.postJson(VALIDATE_DATABASE_URL_PATH, { database_url: databaseUrl })

describe('the validation endpoint', () => {
  it('answers 200 with every flag for a ready database', async () => {
    const response = await check(browserFor(), inject('pgAdminUrl'))
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({
      has_replication_permissions: true,
      has_logical_wal: true,
      can_connect: true,
      can_connect_without_replication: true,
      has_create_privilege: true,
      diagnostics: { user: 'postgres', database: 'postgres' },
    })
  })

  it.each([
    ['unparsable', 'not a url', 'Invalid database URL provided'],
    ['a non-numeric port', 'postgres://u:hunter22@h:port/db', 'port'],
    ['another scheme', 'mysql://u:hunter22@h/db', 'postgres://'],
    ['?host=', 'postgres://u:hunter22@h/db?host=10.0.0.1', '"host"'],
  ])('answers 400 for %s, without the password', async (_n, url, words) => {
    const response = await check(browserFor(), url)
    expect(response.status).toBe(400)
    const { message } = (await response.json()) as { message: string }
    expect(message).toContain(words)
    expect(message).not.toContain('hunter22')
  })

  it('answers 400 for a body without database_url', async () => {
    const response = await check(browserFor(), 42)
    expect(response.status).toBe(400)
  })

  it('refuses loopback in hosted mode, however it is written', async () => {
    const browser = browserFor(hosted)
    for (const host of ['[::ffff:127.0.0.1]', '0x7f000001', '127.1']) {
      const response = await check(browser, `postgres://u:pw@${host}/db`)
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({
        message:
          'This host is not allowed: Sluice only checks databases on public internet addresses.',
      })
    }
  })

  it('answers 429 with retry-after past the per-IP limit', async () => {
    const browser = browserFor({}, { perIp: 2 })
    for (let i = 0; i < 2; i += 1)
      expect((await check(browser, 'not a url')).status).toBe(400)
    const limited = await check(browser, 'not a url')
    expect(limited.status).toBe(429)
    const retryAfter = Number(limited.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(60)
  })

  it('answers 429 while the cap on running checks is reached', async () => {
    // A server that accepts and never answers holds the first check open.
    const sockets: Socket[] = []
    let accepted: () => void = () => {}
    const firstConnection = new Promise<void>((r) => (accepted = r))
    let releasing = false
    const silent = createServer((socket) => {
      socket.on('error', () => {})
      if (releasing) return socket.destroy()
      sockets.push(socket)
      accepted()
    })
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r))
    const { port } = silent.address() as { port: number }
    const browser = browserFor({}, { concurrent: 1 })
    try {
      const first = check(
        browser,
        `postgres://u:pw@127.0.0.1:${port}/db?sslmode=disable`,
      )
      await firstConnection
      const second = await check(browser, 'not a url')
      expect(second.status).toBe(429)
      expect(second.headers.get('retry-after')).toBe('1')
      releasing = true
      for (const socket of sockets) socket.destroy()
      const answered = await first
      expect(answered.status).toBe(200)
      expect((await check(browser, 'not a url')).status).toBe(400)
    } finally {
      for (const socket of sockets) socket.destroy()
      await new Promise((r) => silent.close(r))
    }
  })
})
