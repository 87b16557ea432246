// Keeps a dashboard tab on the session the browser has now. Tabs share the cookie and the
// store, so a sign-out in another tab (announced when its logout is done), a session the
// server refused, or another user's sign-in (the store changing owner) sends this tab to the
// landing page, which finds out who, if anyone, is signed in.
import { useNavigate, useRouter } from '@tanstack/react-router'
import { useCallback, useEffect } from 'react'
import { useStoreOwner } from '../../db/tab/hooks.ts'
import { storeClosed } from '../../db/tab/store-close.ts'
import { onSessionEnded } from '../../lib/session-signal.ts'

/** False while the store holds nobody's or someone else's data: the page has nothing to show. */
export function useFollowSession(userId: string): boolean {
  const owner = useStoreOwner()
  const navigate = useNavigate()
  const router = useRouter()
  const leave = useCallback(() => {
    // A sign-out closed the store: the page loads / anew by itself (store-close.ts).
    if (storeClosed()) return
    // The loaders' answers belong to the session that ended.
    router.clearCache()
    void navigate({ to: '/' })
  }, [navigate, router])

  useEffect(
    () =>
      onSessionEnded((ended) => {
        if (ended.userId == null || ended.userId === userId) leave()
      }),
    [leave, userId],
  )
  // Nobody's: a sign-out is under way, its announcement follows once the session has ended
  // (going now would find the session still there and come straight back).
  const someoneElse = owner != null && owner !== userId
  useEffect(() => {
    if (someoneElse) leave()
  }, [someoneElse, leave])
  return owner === undefined || owner === userId
}
