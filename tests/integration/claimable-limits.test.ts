// The shares of the cap on unclaimed sources: one database (its URL compared without the
// password) and one client address may each have only a few waiting to be claimed, so neither
// a single client nor a single database fills the cap for everyone. Past a share: 429 with
// Retry-After (when the oldest of them expires), and nothing is made.
import { afterAll, describe, expect, it } from 'vitest'
import { buildApp, type App } from '../support/app.ts'
import { CLAIMABLE_PATH } from '../support/claimable.ts'
import { countRows, useControlPlaneDatabase } from '../support/database.ts'
import {
  createSourceDatabase,
  type SourceDatabase,
} from '../support/sources.ts'

const control = useControlPlaneDatabase()
const databases: SourceDatabase[] = []
afterAll(async () => {
  for (const database of databases) await database.drop()
})

async function sourceDatabase(): Promise<SourceDatabase> {
  const database = await createSourceDatabase()
  databases.push(database)
  return database
}

/** Behind one proxy, so each create says which client address it comes from. */
const limitedApp = (vars: Record<string, string>) =>
  buildApp(control.db, { TRUST_PROXY_HOPS: '1', ...vars })

/** A script's create (no Origin, no cookie) from client address `ip`. */
const create = (app: App, ip: string, databaseUrl: string) =>
  app.request(`http://localhost${CLAIMABLE_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ database_url: databaseUrl }),
  })

const SEVENTY_TWO_HOURS_S = 72 * 3600

async function expectRefused(response: Response, message: string) {
  expect(response.status).toBe(429)
  const retryAfter = Number(response.headers.get('retry-after'))
  expect(retryAfter).toBeGreaterThan(0)
  expect(retryAfter).toBeLessThanOrEqual(SEVENTY_TWO_HOURS_S)
  expect(await response.json()).toEqual({ message })
}

describe('unclaimed sources', () => {
  it('are limited per database, whatever the address and the URL’s parameters', async () => {
    const app = limitedApp({ MAX_UNCLAIMED_SOURCES_PER_DATABASE: '2' })
    const database = await sourceDatabase()
    expect((await create(app, '203.0.113.1', database.url)).status).toBe(201)
    expect((await create(app, '203.0.113.2', database.url)).status).toBe(201)
    const claims = await countRows(control.db, 'claimable_sources')
    const again = new URL(database.url)
    again.searchParams.set('sslmode', 'disable')
    await expectRefused(
      await create(app, '203.0.113.3', again.toString()),
      'This database already has 2 sources waiting to be claimed; claim them, or try again once they expire.',
    )
    expect(await countRows(control.db, 'claimable_sources')).toBe(claims)
    // Another database is not held back by this one.
    const other = await sourceDatabase()
    expect((await create(app, '203.0.113.3', other.url)).status).toBe(201)
  }, 60_000)

  it('are limited per client address; another address keeps its own', async () => {
    const app = limitedApp({ MAX_UNCLAIMED_SOURCES_PER_IP: '2' })
    const [a, b, c, d] = await Promise.all(
      [1, 2, 3, 4].map(() => sourceDatabase()),
    )
    const first = await create(app, '198.51.100.7', a!.url)
    expect(first.status).toBe(201)
    const { claimId } = (await first.json()) as { claimId: string }
    expect((await create(app, '198.51.100.7', b!.url)).status).toBe(201)
    const claims = await countRows(control.db, 'claimable_sources')
    await expectRefused(
      await create(app, '198.51.100.7', c!.url),
      'Too many sources created from this address are waiting to be claimed; claim them, or try again once they expire.',
    )
    expect(await countRows(control.db, 'claimable_sources')).toBe(claims)
    // Refused before Sluice logs in to the database: a wrong password is not even tried.
    const wrong = new URL(c!.url)
    wrong.password = 'not-the-password'
    expect((await create(app, '198.51.100.7', wrong.toString())).status).toBe(
      429,
    )
    expect((await create(app, '198.51.100.8', c!.url)).status).toBe(201)

    // One of the address's sources expires: it no longer counts.
    await control.db.query(
      `update claimable_sources set expires_at = now() - interval '1 second'
        where id = $1`,
      [claimId],
    )
    expect((await create(app, '198.51.100.7', d!.url)).status).toBe(201)
  }, 60_000)
})
