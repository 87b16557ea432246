import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { deriveKey } from '../../src/server/platform/crypto/secret.ts'
import {
  openPassword,
  sealPassword,
  SealedPasswordError,
} from '../../src/server/platform/crypto/source-passwords.ts'

const key = deriveKey('a'.repeat(40), 'source-passwords')

describe('source passwords at rest', () => {
  it('opens what it sealed, and never stores the plaintext', () => {
    const id = randomUUID()
    const sealed = sealPassword(key, id, 'pä$$ word')
    expect(sealed.includes(Buffer.from('pä$$ word'))).toBe(false)
    expect(openPassword(key, id, sealed)).toBe('pä$$ word')
  })

  it('seals the same password differently each time', () => {
    const id = randomUUID()
    expect(sealPassword(key, id, 'x').equals(sealPassword(key, id, 'x'))).toBe(
      false,
    )
  })

  it("refuses another source's id, another key and a changed byte", () => {
    const id = randomUUID()
    const sealed = sealPassword(key, id, 'secret')
    expect(() => openPassword(key, randomUUID(), sealed)).toThrow(
      SealedPasswordError,
    )
    const other = deriveKey('b'.repeat(40), 'source-passwords')
    expect(() => openPassword(other, id, sealed)).toThrow(SealedPasswordError)
    const tampered = Buffer.from(sealed)
    tampered.writeUInt8(
      tampered.readUInt8(tampered.length - 1) ^ 1,
      tampered.length - 1,
    )
    expect(() => openPassword(key, id, tampered)).toThrow(SealedPasswordError)
    expect(() => openPassword(key, id, Buffer.of(9, 1, 2))).toThrow(
      SealedPasswordError,
    )
  })
})
