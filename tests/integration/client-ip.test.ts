// Per-client limits behind proxies: with TRUST_PROXY_HOPS, the client is the address the
// outermost trusted proxy appended to X-Forwarded-For; without it, the header is never read.
import { beforeEach, describe, expect, it } from 'vitest'
import { Browser, buildApp, uniqueEmail, type App } from '../support/app.ts'
import {
  clearRateLimits,
  useControlPlaneDatabase,
} from '../support/database.ts'

const database = useControlPlaneDatabase()
// Each test counts the same addresses from nothing.
beforeEach(() => clearRateLimits(database.db))

/** A local sign-in as it arrives from the proxies with this X-Forwarded-For. */
const loginFrom = (app: App, forwardedFor: string) =>
  new Browser(app).request('/api/public/auth/local/login', {
    method: 'POST',
    headers: {
      origin: 'http://localhost',
      'content-type': 'application/json',
      'x-forwarded-for': forwardedFor,
    },
    body: JSON.stringify({ name: 'Ada', email: uniqueEmail() }),
  })

const statuses = async (app: App, forwardedFor: string[]) => {
  const answers: number[] = []
  for (const header of forwardedFor)
    answers.push((await loginFrom(app, header)).status)
  return answers
}

const limited = (vars: Record<string, string>) =>
  buildApp(database.db, { LOCAL_LOGINS_PER_MINUTE: '2', ...vars })

describe('the client address of a per-IP limit', () => {
  it('is the last X-Forwarded-For entry behind one proxy, whatever the client wrote before it', async () => {
    const app = limited({ TRUST_PROXY_HOPS: '1' })
    expect(
      await statuses(app, [
        '203.0.113.5',
        '198.51.100.1, 203.0.113.5',
        '203.0.113.5',
        '203.0.113.6',
      ]),
    ).toEqual([200, 200, 429, 200])
  })

  it('is the one the outer proxy saw behind two', async () => {
    const app = limited({ TRUST_PROXY_HOPS: '2' })
    expect(
      await statuses(app, [
        '203.0.113.5, 10.0.0.2',
        '203.0.113.5, 10.0.0.3',
        '203.0.113.5, 10.0.0.2',
        '203.0.113.6, 10.0.0.2',
      ]),
    ).toEqual([200, 200, 429, 200])
  })

  it('is the socket peer when an entry is missing or not an address', async () => {
    const app = limited({ TRUST_PROXY_HOPS: '2' })
    expect(
      await statuses(app, ['203.0.113.5', 'nonsense, 10.0.0.2', '203.0.113.7']),
    ).toEqual([200, 200, 429])
  })

  it('never reads X-Forwarded-For by default', async () => {
    const app = limited({})
    expect(
      await statuses(app, ['203.0.113.5', '203.0.113.6', '203.0.113.7']),
    ).toEqual([200, 200, 429])
  })
})
