// Ends the session, then goes to the landing page; a failed logout is only logged: the
// user asked to leave, so they leave either way.
import { useNavigate, useRouter } from '@tanstack/react-router'
import { useCallback } from 'react'
import { z } from 'zod'
import { resetAnalytics } from '../../lib/analytics.ts'
import { api } from '../../lib/api.ts'
import { announceSessionEnded } from '../../lib/session-signal.ts'
import { storeClosed } from '../../db/tab/store-close.ts'
import { LOGOUT_PATH } from '../../../shared/api-routes.ts'

export function useSignOut(): () => Promise<void> {
  const navigate = useNavigate()
  const router = useRouter()
  return useCallback(async () => {
    // Whoever uses this browser next must not see this user's data: the store is emptied and
    // its database deleted, in every tab. Releasing it first also stops its sync before the
    // session it runs on ends.
    await import('../../db/tab/store.ts')
      .then((store) => store.releaseStore())
      .catch((error: unknown) =>
        console.warn('Clearing local data failed', error),
      )
    try {
      await api(LOGOUT_PATH, z.unknown(), { method: 'POST' })
    } catch (error) {
      console.warn('Logout failed', error)
    }
    resetAnalytics()
    router.clearCache()
    // Every tab goes with this one (use-follow-session.ts), now that the session has ended.
    announceSessionEnded({ userId: null })
    // A page whose store closed loads / anew (store-close.ts).
    if (!storeClosed()) await navigate({ to: '/' })
  }, [navigate, router])
}
