// The claim's state, read when the page opens and every CLAIM_POLL_MS while it is pending or ready.
// A failed read is not retried at once (the poll already asks again soon); the next poll reads
// again, and the failure shows until an answer comes.
import { useEffect, useRef, useState } from 'react'
import {
  CLAIM_POLL_MS,
  type ClaimableSource,
} from '../../../shared/claimable-sources.ts'
import { claimErrorMessage, fetchClaim } from './claim-api.ts'
import { keepPolling } from './claim-view.ts'

/** `active`: false stops the reads (signed out, or claimed). */
export function useClaim(claimId: string | null, active: boolean) {
  const [answer, setAnswer] = useState<ClaimableSource | null | undefined>()
  const [error, setError] = useState<string | null>(null)
  const last = useRef<ClaimableSource | null | undefined>(undefined)

  useEffect(() => {
    if (!claimId || !active) return
    const controller = new AbortController()
    let timer: ReturnType<typeof setTimeout> | undefined
    const read = async () => {
      try {
        const next = await fetchClaim(claimId, controller.signal)
        last.current = next
        setAnswer(next)
        setError(null)
      } catch (failure) {
        if (controller.signal.aborted) return
        setError(claimErrorMessage(failure))
      }
      // Before the first answer, a failure still polls: the claim may well be claimable.
      if (last.current === undefined || keepPolling(last.current))
        timer = setTimeout(() => void read(), CLAIM_POLL_MS)
    }
    void read()
    return () => {
      controller.abort()
      clearTimeout(timer)
    }
  }, [claimId, active])

  return { answer, error }
}
