// The fixed-window limiter every rate of the server uses, counting in the control plane: two
// apps on one control plane (two servers sharing it) share each limit, and concurrent
// admissions never slip past one.
import { describe, expect, it, vi } from 'vitest'
import {
  admitAll,
  createRateLimiter,
  pruneRateLimits,
} from '../../src/server/platform/http/rate-limit.ts'
import { Browser, buildApp, uniqueEmail, type App } from '../support/app.ts'
import { countRows, useControlPlaneDatabase } from '../support/database.ts'

const database = useControlPlaneDatabase()

let limiters = 0
/** A limiter of its own name (so tests never share counts), on a clock the test moves. */
function limiter(limit = 2, windowMs = 60_000) {
  let time = 1_000_000
  limiters += 1
  const rate = createRateLimiter(
    database.db,
    `test-${limiters}`,
    { limit, windowMs },
    () => time,
  )
  return { rate, advance: (ms: number) => (time += ms) }
}

describe('a rate limiter', () => {
  it('admits a key up to its limit per window, then says when to retry', async () => {
    const { rate, advance } = limiter()
    expect(await rate.admit('a')).toEqual({ admitted: true })
    advance(10_000)
    expect(await rate.admit('a')).toEqual({ admitted: true })
    expect(await rate.admit('a')).toEqual({
      admitted: false,
      retryAfterSeconds: 50,
    })
    expect(await rate.admit('b')).toEqual({ admitted: true })
  })

  it('admits again once the window has passed, pruned or not', async () => {
    const { rate, advance } = limiter()
    await rate.admit('a')
    await rate.admit('a')
    advance(59_999)
    expect((await rate.admit('a')).admitted).toBe(false)
    advance(1)
    expect(await rate.admit('a')).toEqual({ admitted: true })

    const pruned = limiter(1)
    await pruned.rate.admit('a')
    await pruneRateLimits(database.db, 1_000_000 + 60_000)
    expect(await pruned.rate.admit('a')).toEqual({ admitted: true })
  })

  it('counts a request against every key, and a refusal against none', async () => {
    const { rate } = limiter(1)
    expect(await rate.admit('user', 'team')).toEqual({ admitted: true })
    // The team is full: the other user is refused and keeps their own allowance.
    expect((await rate.admit('other-user', 'team')).admitted).toBe(false)
    expect(await rate.admit('other-user', 'other-team')).toEqual({
      admitted: true,
    })
  })

  it('never says to retry in 0 seconds', async () => {
    const { rate, advance } = limiter(1, 1_000)
    await rate.admit('a')
    advance(999)
    expect(await rate.admit('a')).toEqual({
      admitted: false,
      retryAfterSeconds: 1,
    })
  })

  it('admits no more than its limit when many ask while another server holds the count', async () => {
    const { rate } = limiter(5)
    await rate.admit('a')
    // Another server's admission in progress: its transaction holds the row.
    const holder = await database.db.connect()
    try {
      await holder.query('begin')
      await holder.query(
        `select count from rate_limits where limiter = $1 and key = 'a' for update`,
        [rate.name],
      )
      const answers = Promise.all(
        Array.from({ length: 8 }, () => rate.admit('a')),
      )
      // 8 of the pool's 10 connections wait on the held row; the last one looks (outside the
      // holder's transaction, which would see one snapshot of the activity).
      await vi.waitFor(
        async () => {
          const { rows } = await database.db.query<{ n: number }>(
            `select count(*)::int as n from pg_stat_activity
             where datname = current_database() and wait_event_type = 'Lock'`,
          )
          expect(rows[0]?.n).toBe(8)
        },
        { timeout: 4_000 },
      )
      await holder.query('commit')
      const admitted = (await answers).filter((answer) => answer.admitted)
      expect(admitted).toHaveLength(4)
    } finally {
      holder.release()
    }
  })
})

describe('admitting against several limiters', () => {
  it('admits against each, or, refused by one, consumes nothing of the others', async () => {
    const small = limiter(1)
    const large = limiter(3)
    const both = (a: string, b: string) =>
      admitAll([small.rate, a], [large.rate, b])
    expect(await both('destination-1', 'team')).toEqual({ admitted: true })
    small.advance(20_000)
    large.advance(20_000)
    expect(await both('destination-1', 'team')).toEqual({
      admitted: false,
      retryAfterSeconds: 40,
    })
    // The refusal above left the team two, not one.
    expect(await both('destination-2', 'team')).toEqual({ admitted: true })
    expect(await both('destination-3', 'team')).toEqual({ admitted: true })
    expect((await both('destination-4', 'team')).admitted).toBe(false)
  })
})

describe('servers sharing a control plane', () => {
  const loginFrom = (app: App, address: string) =>
    new Browser(app).request('/api/public/auth/local/login', {
      method: 'POST',
      headers: {
        origin: 'http://localhost',
        'content-type': 'application/json',
        'x-forwarded-for': address,
      },
      body: JSON.stringify({ name: 'Ada', email: uniqueEmail() }),
    })

  it('share a limit: a client spreading its requests over them gets no more', async () => {
    const vars = { LOCAL_LOGINS_PER_MINUTE: '2', TRUST_PROXY_HOPS: '1' }
    const first = buildApp(database.db, vars)
    const second = buildApp(database.db, vars)
    const address = '192.0.2.41'
    expect((await loginFrom(first, address)).status).toBe(200)
    expect((await loginFrom(second, address)).status).toBe(200)
    const users = await countRows(database.db, 'users')
    for (const app of [first, second]) {
      const refused = await loginFrom(app, address)
      expect(refused.status).toBe(429)
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    }
    expect(await countRows(database.db, 'users')).toBe(users)
    // Another client's allowance is its own.
    expect((await loginFrom(second, '192.0.2.42')).status).toBe(200)
  })
})
