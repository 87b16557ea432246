// Source database passwords at rest: AES-256-GCM under a key derived for this purpose alone,
// with the source's id as associated data, so a sealed password copied onto another source's
// row does not open. Layout: version (1 byte) | nonce (12) | tag (16) | ciphertext.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

const VERSION = 1
const NONCE_BYTES = 12
const TAG_BYTES = 16
const HEADER_BYTES = 1 + NONCE_BYTES + TAG_BYTES

export class SealedPasswordError extends Error {}

export function sealPassword(
  key: Buffer,
  sourceId: string,
  password: string,
): Buffer {
  const nonce = randomBytes(NONCE_BYTES)
  const cipher = createCipheriv('aes-256-gcm', key, nonce)
  cipher.setAAD(Buffer.from(sourceId, 'utf8'))
  const ciphertext = Buffer.concat([
    cipher.update(password, 'utf8'),
    cipher.final(),
  ])
  return Buffer.concat([
    Buffer.of(VERSION),
    nonce,
    cipher.getAuthTag(),
    ciphertext,
  ])
}

export function openPassword(
  key: Buffer,
  sourceId: string,
  sealed: Buffer,
): string {
  if (sealed.length < HEADER_BYTES || sealed[0] !== VERSION)
    throw new SealedPasswordError('The stored password has an unknown format')
  const nonce = sealed.subarray(1, 1 + NONCE_BYTES)
  const tag = sealed.subarray(1 + NONCE_BYTES, HEADER_BYTES)
  const decipher = createDecipheriv('aes-256-gcm', key, nonce)
  decipher.setAAD(Buffer.from(sourceId, 'utf8'))
  decipher.setAuthTag(tag)
  try {
    return Buffer.concat([
      decipher.update(sealed.subarray(HEADER_BYTES)),
      decipher.final(),
    ]).toString('utf8')
  } catch {
    // Wrong key (SLUICE_SECRET changed) or a row tampered with: never a partial plaintext.
    throw new SealedPasswordError(
      'The stored password cannot be decrypted with this server key',
    )
  }
}
