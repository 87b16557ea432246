// A source's stored password, opened with this server's key: the engine's connections and the
// removal's both need it, and both tell the user the same thing when it cannot be opened.
import { openPassword } from '../../platform/crypto/source-passwords.ts'
import type { RunnableSource } from './rows.ts'

export const UNDECRYPTABLE =
  "The stored password cannot be decrypted with this server's key (was SLUICE_SECRET changed?). Delete the source and add it again."

/** The password (null: the connection string holds none), or the error of opening it. */
export function storedPassword(
  key: Buffer,
  row: Pick<RunnableSource, 'id' | 'encrypted_password'>,
): string | null | Error {
  if (!row.encrypted_password) return null
  try {
    return openPassword(key, row.id, row.encrypted_password)
  } catch (error) {
    return error as Error
  }
}
