// A source's stored password after SLUICE_SECRET changed: it cannot be opened, and removing the
// source says so (UNDECRYPTABLE) without connecting anywhere; a password under the right key,
// or none at all, opens as it was stored.
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { sealPassword } from '../../src/server/platform/crypto/source-passwords.ts'
import { replicationNames } from '../../src/engine/replication/names.ts'
import { dropSourceReplication } from '../../src/server/sources/runtime/removal.ts'
import {
  storedPassword,
  UNDECRYPTABLE,
} from '../../src/server/sources/runtime/stored-password.ts'

const id = '3f0a4c2e-5b7d-4e8f-9a1b-2c3d4e5f6a7b'
const key = randomBytes(32)
const otherKey = randomBytes(32)
const sealed = sealPassword(key, id, 'hunter2')

describe('storedPassword', () => {
  it('opens a password sealed under this key', () => {
    expect(storedPassword(key, { id, encrypted_password: sealed })).toBe(
      'hunter2',
    )
  })

  it('is null when the source has no stored password', () => {
    expect(storedPassword(key, { id, encrypted_password: null })).toBeNull()
  })

  it('is an error under another key, or for another source', () => {
    expect(
      storedPassword(otherKey, { id, encrypted_password: sealed }),
    ).toBeInstanceOf(Error)
    expect(
      storedPassword(key, {
        id: '00000000-0000-4000-8000-000000000000',
        encrypted_password: sealed,
      }),
    ).toBeInstanceOf(Error)
  })
})

describe('dropSourceReplication', () => {
  it('explains a password it cannot open, and connects nowhere', async () => {
    const pinHost = () => Promise.reject(new Error('no connection expected'))
    const problem = await dropSourceReplication(
      {
        id,
        connection_url: 'postgresql://sluice@db.example.com:5432/app',
        encrypted_password: sealed,
      },
      replicationNames(id),
      otherKey,
      pinHost,
    )
    expect(problem).toEqual({ message: UNDECRYPTABLE, own: true })
  })
})
