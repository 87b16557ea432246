// The fixed-window limiter every rate of the server uses.
import { describe, expect, it } from 'vitest'
import {
  admitAll,
  createRateLimiter,
} from '../../src/server/platform/http/rate-limit.ts'

function limiter(limit = 2, windowMs = 60_000) {
  let time = 1_000_000
  const rate = createRateLimiter({ limit, windowMs }, () => time)
  return { rate, advance: (ms: number) => (time += ms) }
}

describe('a rate limiter', () => {
  it('admits a key up to its limit per window, then says when to retry', () => {
    const { rate, advance } = limiter()
    expect(rate.admit('a')).toEqual({ admitted: true })
    advance(10_000)
    expect(rate.admit('a')).toEqual({ admitted: true })
    expect(rate.admit('a')).toEqual({
      admitted: false,
      retryAfterSeconds: 50,
    })
    expect(rate.admit('b')).toEqual({ admitted: true })
  })

  it('admits again once the window has passed, swept or not', () => {
    const { rate, advance } = limiter()
    rate.admit('a')
    rate.admit('a')
    advance(59_999)
    expect(rate.admit('a').admitted).toBe(false)
    advance(1)
    expect(rate.admit('a')).toEqual({ admitted: true })
  })

  it('counts a request against every key, and a refusal against none', () => {
    const { rate } = limiter(1)
    expect(rate.admit('user', 'team')).toEqual({ admitted: true })
    // The team is full: the other user is refused and keeps their own allowance.
    expect(rate.admit('other-user', 'team').admitted).toBe(false)
    expect(rate.admit('other-user', 'other-team')).toEqual({ admitted: true })
  })

  it('never says to retry in 0 seconds', () => {
    const { rate, advance } = limiter(1, 1_000)
    rate.admit('a')
    advance(999)
    expect(rate.admit('a')).toEqual({ admitted: false, retryAfterSeconds: 1 })
  })
})

describe('admitting against several limiters', () => {
  it('admits against each, or, refused by one, consumes nothing of the others', () => {
    const small = limiter(1)
    const large = limiter(3)
    const both = (a: string, b: string) =>
      admitAll([small.rate, a], [large.rate, b])
    expect(both('destination-1', 'team')).toEqual({ admitted: true })
    small.advance(20_000)
    large.advance(20_000)
    expect(both('destination-1', 'team')).toEqual({
      admitted: false,
      retryAfterSeconds: 40,
    })
    // The refusal above left the team two, not one.
    expect(both('destination-2', 'team')).toEqual({ admitted: true })
    expect(both('destination-3', 'team')).toEqual({ admitted: true })
    expect(both('destination-4', 'team').admitted).toBe(false)
  })
})
