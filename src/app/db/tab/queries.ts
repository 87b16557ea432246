// One-off reads over REST (never lists: those live in the local store, see hooks.ts).
import { authUserSchema } from '../../../shared/entities.ts'
import { api, ApiError } from '../../lib/api.ts'
import { forgetSessionHint, mayBeSignedIn } from '../../lib/session-hint.ts'
import { syncedFor } from './hints.ts'
import { AUTH_USER_PATH } from '../../../shared/api-routes.ts'

/** The signed-in user; an ApiError 401 when there is none (asked only if one may exist). */
export async function fetchAuthUser() {
  if (!mayBeSignedIn()) throw new ApiError(401, 'Not signed in')
  try {
    return await api(AUTH_USER_PATH, authUserSchema)
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) forgetSessionHint()
    throw error
  }
}

/**
 * The signed-in user's id: asked of the server, or, when the server cannot be reached, the
 * owner of the local store (the app works offline on last-known data). Null: signed out.
 */
export async function fetchSessionUser(): Promise<string | null> {
  try {
    return (await fetchAuthUser()).id
  } catch (error) {
    if (error instanceof ApiError) return null
    return lastSignedIn()
  }
}

/** Who the local store belongs to: the user last signed in on this browser, if any. */
export async function lastSignedIn(): Promise<string | null> {
  // Known without opening the store once its data is synced for them (hints.ts).
  const synced = syncedFor()
  if (synced) return synced
  const { openStore, localOwner } = await import('./store.ts')
  return localOwner(await openStore()).catch(() => null)
}
