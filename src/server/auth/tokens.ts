// Random tokens and their stored form: only hashes of bearer secrets ever reach the database.
import { createHash, randomBytes } from 'node:crypto'

/** 256 bits from the OS CSPRNG, URL-safe. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url')
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}
