// Provider access and refresh tokens at rest: the same AES-256-GCM sealing as source passwords,
// under the key derived for provider tokens, bound to the user, provider and kind of token, so
// a sealed token copied onto another user's row (or into the other column) does not open.
import { openPassword, sealPassword } from './source-passwords.ts'

export type TokenSlot = {
  userId: string
  provider: string
  kind: 'access' | 'refresh'
}

const associated = ({ userId, provider, kind }: TokenSlot) =>
  `provider-token:${userId}:${provider}:${kind}`

export const sealToken = (key: Buffer, slot: TokenSlot, token: string) =>
  sealPassword(key, associated(slot), token)

export const openToken = (key: Buffer, slot: TokenSlot, sealed: Buffer) =>
  openPassword(key, associated(slot), sealed)
