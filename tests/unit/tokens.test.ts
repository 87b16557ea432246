// Session and OAuth secrets: 256 random bits, stored only as their SHA-256.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { hashToken, randomToken } from '../../src/server/auth/tokens.ts'

describe('randomToken', () => {
  it('is 256 bits as 43 base64url characters', () => {
    const token = randomToken()
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(Buffer.from(token, 'base64url')).toHaveLength(32)
  })

  it('never repeats', () => {
    const tokens = Array.from({ length: 1000 }, () => randomToken())
    expect(new Set(tokens).size).toBe(tokens.length)
  })

  it('takes another length in bytes', () => {
    expect(Buffer.from(randomToken(16), 'base64url')).toHaveLength(16)
  })
})

describe('hashToken', () => {
  it('is the SHA-256 of the token in hex', () => {
    // FIPS 180-2 test vector
    expect(hashToken('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    )
  })

  it('is deterministic, 64 hex characters, and never the token itself', () => {
    const token = randomToken()
    const hash = hashToken(token)
    expect(hash).toMatch(/^[0-9a-f]{64}$/)
    expect(hashToken(token)).toBe(hash)
    expect(hash).not.toBe(token)
    expect(hash).not.toContain(token)
    expect(hash).toBe(createHash('sha256').update(token).digest('hex'))
  })

  it('differs for different tokens', () => {
    expect(hashToken(randomToken())).not.toBe(hashToken(randomToken()))
  })
})
