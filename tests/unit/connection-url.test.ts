// What the engine connects with (connection-url.ts): the password put back, and sslmode read as
// libpq reads it, so that pg encrypts without verifying where the user asked only for TLS.
import { parse } from 'pg-connection-string'
import { describe, expect, it } from 'vitest'
import { withPassword } from '../../src/server/sources/runtime/connection-url.ts'

const stored = (sslmode?: string) =>
  `postgresql://app@db.example.com:5432/shop${sslmode ? `?sslmode=${sslmode}` : ''}`

describe('withPassword', () => {
  it('puts the password back, encoded', () => {
    const url = withPassword(stored(), 'p@ss/w:rd')
    expect(parse(url).password).toBe('p@ss/w:rd')
  })

  it('encrypts without verifying for sslmode=require and prefer, as libpq does', () => {
    for (const mode of ['require', 'prefer']) {
      const { ssl } = parse(withPassword(stored(mode), 'secret'))
      expect(ssl, mode).toEqual({ rejectUnauthorized: false })
    }
  })

  it('keeps full verification for verify-full and verify-ca, and no TLS for disable', () => {
    expect(parse(withPassword(stored('verify-full'), 'secret')).ssl).toEqual({})
    expect(parse(withPassword(stored('verify-ca'), 'secret')).ssl).toEqual({})
    expect(parse(withPassword(stored('disable'), 'secret')).ssl).toBe(false)
    expect(withPassword(stored(), null)).toBe(stored())
  })
})
