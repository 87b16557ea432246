// The server's root secret: SLUICE_SECRET in hosted mode, generated once into DATA_DIR locally.
// Keys for separate purposes are derived from it, so one leak does not serve every purpose.
import { hkdfSync, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

export async function loadSecret(
  configured: string | undefined,
  dataDir: string,
): Promise<string> {
  if (configured) return configured
  const file = join(dataDir, 'secret')
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim()
  const secret = randomBytes(32).toString('base64url')
  // wx: two processes starting at once must not overwrite each other's secret.
  await writeFile(file, secret, { mode: 0o600, flag: 'wx' }).catch(
    async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error
    },
  )
  return (await readFile(file, 'utf8')).trim()
}

export type KeyPurpose =
  'source-passwords' | 'provider-tokens' | 'alert-secrets'

export function deriveKey(secret: string, purpose: KeyPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'sluice', purpose, 32))
}

/** The server's keys, one per purpose, derived once at start. */
export type ServerKeys = Record<KeyPurpose, Buffer>

export const deriveServerKeys = (secret: string): ServerKeys => ({
  'source-passwords': deriveKey(secret, 'source-passwords'),
  'provider-tokens': deriveKey(secret, 'provider-tokens'),
  'alert-secrets': deriveKey(secret, 'alert-secrets'),
})
