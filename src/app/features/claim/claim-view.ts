// What the claim page shows for the claim's last answer: only `pending` and
// `ready` are claimable, and only they are polled again.
import type { ClaimableSource } from '../../../shared/claimable-sources.ts'
import { loginPath } from '../../../shared/api-routes.ts'

export type ClaimView =
  | { kind: 'loading' }
  | { kind: 'not-claimable'; reason: string | null }
  | { kind: 'claimable'; answer: ClaimableSource; ready: boolean }

/** `answer`: undefined not read yet, null not claimable (404). */
export function claimView(
  answer: ClaimableSource | null | undefined,
): ClaimView {
  if (answer === undefined) return { kind: 'loading' }
  if (answer === null) return { kind: 'not-claimable', reason: null }
  if (answer.state === 'pending' || answer.state === 'ready')
    return { kind: 'claimable', answer, ready: answer.state === 'ready' }
  // A failed source says why; a claimed one needs no reason beyond "not claimable".
  return {
    kind: 'not-claimable',
    reason: answer.state === 'failed' ? answer.message : null,
  }
}

/** Polled again (every CLAIM_POLL_MS) only while it may still be claimed. */
export const keepPolling = (answer: ClaimableSource | null | undefined) =>
  answer?.state === 'pending' || answer?.state === 'ready'

/** The claim page's sign-in links carry the claim (the server brings the user back). */
export const signInHref = (provider: 'github' | 'google', claimId: string) =>
  `${loginPath(provider)}?claim=${encodeURIComponent(claimId)}`
