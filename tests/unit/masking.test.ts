import { describe, expect, it } from 'vitest'
import { maskConnectionUrl, maskSecret } from '../../src/shared/masking.ts'

describe('maskSecret', () => {
  it('shows the first and last three characters', () => {
    expect(maskSecret('abcdef123456xyz')).toBe('abc***xyz')
  })

  it('masks a secret of six characters or fewer whole', () => {
    expect(maskSecret('abcdef')).toBe('***')
    expect(maskSecret('abc')).toBe('***')
    expect(maskSecret('')).toBe('***')
  })

  it('shows seven characters as 3 + *** + 3, hiding the middle one', () => {
    expect(maskSecret('abcXdef')).toBe('abc***def')
  })
})

describe('maskConnectionUrl', () => {
  it('removes the scheme and masks the password', () => {
    expect(
      maskConnectionUrl('postgresql://alice:s3cret@db.example.com:5432/app'),
    ).toBe('alice:****@db.example.com:5432/app')
  })

  it('masks a password that was never stored, when the URL names a user', () => {
    expect(
      maskConnectionUrl('postgres://alice@db.example.com/app?sslmode=require'),
    ).toBe('alice:****@db.example.com/app?sslmode=require')
  })

  it('leaves a URL without user info as host and path', () => {
    expect(maskConnectionUrl('postgres://db.example.com:5432/app')).toBe(
      'db.example.com:5432/app',
    )
  })

  it('masks a password without a user', () => {
    expect(maskConnectionUrl('postgres://:pw@db/app')).toBe('****@db/app')
  })

  it('never shows a password holding unencoded @, / or ?', () => {
    const masked = maskConnectionUrl('postgres://bob:p@ss/w?rd@db:5432/app')
    expect(masked).toBe('bob:****@db:5432/app')
    expect(masked).not.toContain('ss/w')
  })

  it('passes text without a scheme through, still masking', () => {
    expect(maskConnectionUrl('bob:pw@db/app')).toBe('bob:****@db/app')
    expect(maskConnectionUrl('db/app')).toBe('db/app')
  })
})
