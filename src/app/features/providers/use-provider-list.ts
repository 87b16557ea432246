// One provider list on a wizard page: read on mount, every 10 s and on window focus, a failed read
// tried again up to 3 times; a 401 reads as not connected. The one hook every provider page uses,
// so the policy lives in one place (refetch-policy.ts).
import { useCallback, useEffect, useState } from 'react'
import { PROVIDER_REFETCH_MS } from '../../../shared/constants.ts'
import { fetchList, type ListRequest } from './provider-api.ts'
import {
  failedList,
  retryDelayMs,
  shouldRetry,
  type ListState,
} from './refetch-policy.ts'

export type ProviderList<T> = { state: ListState<T>; reload: () => void }

/** `request` null: the page lacks what the list needs (nothing is read). */
export function useProviderList<T>(
  request: ListRequest<T> | null,
): ProviderList<T> {
  const path = request?.path ?? null
  const [reloads, setReloads] = useState(0)
  // Keyed by what was asked, so another path reads as loading until answered, while a refetch
  // of the same path keeps the list up.
  const key = `${path}:${reloads}`
  const [answer, setAnswer] = useState<{ key: string; state: ListState<T> }>()

  useEffect(() => {
    if (!request) return
    let aborter: AbortController | null = null
    let retryTimer: ReturnType<typeof setTimeout> | undefined
    const read = (failures: number) => {
      aborter?.abort()
      clearTimeout(retryTimer)
      const current = new AbortController()
      aborter = current
      fetchList(request, current.signal).then(
        (items) => setAnswer({ key, state: { kind: 'list', items } }),
        (error: unknown) => {
          // A newer read or leaving the page aborted it: not a failure to show.
          if (current.signal.aborted) return
          if (shouldRetry(failures + 1, error)) {
            retryTimer = setTimeout(
              () => read(failures + 1),
              retryDelayMs(failures + 1),
            )
            return
          }
          setAnswer({
            key,
            state: failedList(error, request.noun, request.fallback),
          })
        },
      )
    }
    read(0)
    const timer = setInterval(() => read(0), PROVIDER_REFETCH_MS)
    const onFocus = () => read(0)
    window.addEventListener('focus', onFocus)
    return () => {
      clearInterval(timer)
      clearTimeout(retryTimer)
      window.removeEventListener('focus', onFocus)
      aborter?.abort()
    }
    // The request object is rebuilt each render; its path names it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key])

  const reload = useCallback(() => setReloads((n) => n + 1), [])
  if (!request || answer?.key !== key)
    return { state: { kind: 'loading' }, reload }
  return { state: answer.state, reload }
}
